package dev.jetsink;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public API names only public types: no public or protected member of a class
 * in {@code dev.jetsink}, {@code dev.jetsink.event} or {@code dev.jetsink.lifecycle} mentions a
 * type of {@code dev.jetsink.internal} in its signature, generic or thrown, as {@code javap
 * -public} would show it.
 */
class PublicApiTest {
    private static final List<String> API_PACKAGES = List.of("dev.jetsink", "dev.jetsink.event", "dev.jetsink.lifecycle");
    private static final String INTERNAL = "dev.jetsink.internal";

    @Test
    void theApiPackagesNameNoInternalType() throws Exception {
        List<Class<?>> api = apiClasses();
        assertThat(api).as("the scan finds the front door").contains(Sink.class, SinkBuilder.class,
            dev.jetsink.event.S3EventRecord.class, dev.jetsink.lifecycle.LifecycleListener.class);
        List<String> offending = new ArrayList<>();
        for (Class<?> c : api) {
            offending.addAll(offences(c));
        }
        assertThat(offending).as("public members naming internal types").isEmpty();
    }

    @Test
    void theCheckFindsAnInternalTypeInASignature() {
        // a public nested type of this test that leaks an internal type, so the check is seen to bite
        assertThat(offences(Leaky.class)).anySatisfy(o -> assertThat(o).contains("leak").contains(INTERNAL));
    }

    /** Deliberately wrong: names an internal type in a public signature. */
    public static final class Leaky {
        /**
         * A method that leaks.
         *
         * @return nothing useful
         */
        public java.util.Optional<dev.jetsink.internal.targets.TargetState> leak() {
            return java.util.Optional.empty();
        }
    }

    private static List<Class<?>> apiClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Sink.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> classes = new ArrayList<>();
        for (String pkg : API_PACKAGES) {
            Path dir = root.resolve(pkg.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                    String name = f.getFileName().toString();
                    Class<?> c = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()), false,
                        PublicApiTest.class.getClassLoader());
                    if (visible(c)) {
                        classes.add(c);
                    }
                }
            }
        }
        return classes;
    }

    /** Public or protected, and every enclosing class too: what javap -public lists. */
    private static boolean visible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (k.isAnonymousClass() || k.isLocalClass() || k.isSynthetic()) {
                return false;
            }
            int m = k.getModifiers();
            if (!Modifier.isPublic(m) && !Modifier.isProtected(m)) {
                return false;
            }
        }
        return true;
    }

    private static List<String> offences(Class<?> c) {
        List<String> found = new ArrayList<>();
        check(found, c.getName() + " extends", c.getGenericSuperclass());
        for (Type t : c.getGenericInterfaces()) {
            check(found, c.getName() + " implements", t);
        }
        for (TypeVariable<?> v : c.getTypeParameters()) {
            check(found, c.getName() + " <" + v.getName() + ">", v);
        }
        if (c.isRecord()) {
            for (RecordComponent r : c.getRecordComponents()) {
                check(found, c.getName() + " component " + r.getName(), r.getGenericType());
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (exposed(f.getModifiers()) && !f.isSynthetic()) {
                check(found, c.getName() + "." + f.getName(), f.getGenericType());
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (exposed(k.getModifiers()) && !k.isSynthetic()) {
                checkExecutable(found, c.getName() + "(constructor)", k);
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (exposed(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                checkExecutable(found, c.getName() + "." + m.getName(), m);
                check(found, c.getName() + "." + m.getName() + " returns", m.getGenericReturnType());
            }
        }
        return found;
    }

    private static boolean exposed(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void checkExecutable(List<String> found, String where, Executable e) {
        for (Type t : e.getGenericParameterTypes()) {
            check(found, where + " parameter", t);
        }
        for (Type t : e.getGenericExceptionTypes()) {
            check(found, where + " throws", t);
        }
        for (TypeVariable<?> v : e.getTypeParameters()) {
            check(found, where + " <" + v.getName() + ">", v);
        }
    }

    private static void check(List<String> found, String where, Type type) {
        Set<String> names = new HashSet<>();
        collect(type, names, new HashSet<>());
        names.stream().filter(n -> n.startsWith(INTERNAL)).sorted().forEach(n -> found.add(where + ": " + n));
    }

    private static void collect(Type type, Set<String> names, Set<Type> seen) {
        if (type == null || !seen.add(type)) {
            return;
        }
        if (type instanceof Class<?> c) {
            Class<?> k = c;
            while (k.isArray()) {
                k = k.getComponentType();
            }
            names.add(k.getName());
        } else if (type instanceof ParameterizedType p) {
            collect(p.getRawType(), names, seen);
            collect(p.getOwnerType(), names, seen);
            for (Type a : p.getActualTypeArguments()) {
                collect(a, names, seen);
            }
        } else if (type instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                collect(b, names, seen);
            }
            for (Type b : w.getLowerBounds()) {
                collect(b, names, seen);
            }
        } else if (type instanceof GenericArrayType g) {
            collect(g.getGenericComponentType(), names, seen);
        } else if (type instanceof TypeVariable<?> v) {
            for (Type b : v.getBounds()) {
                collect(b, names, seen);
            }
        }
    }
}
