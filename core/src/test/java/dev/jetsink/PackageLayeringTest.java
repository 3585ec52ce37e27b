package dev.jetsink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package order of DESIGN.md "Package order" holds in core's and server's main code: no
 * {@code import} or fully qualified {@code dev.jetsink.} name goes up the order or closes a cycle.
 * The order is parsed from DESIGN.md itself, so the document and the check cannot drift apart.
 */
class PackageLayeringTest {
    private static final Path DESIGN = Path.of("../docs/DESIGN.md");
    // tests run in the module directory: core's own sources and the server's beside them
    private static final List<Path> MAIN_SOURCES = List.of(Path.of("src/main/java"),
        Path.of("../server/src/main/java"));
    private static final Pattern LISTED = Pattern.compile("^\\d+\\. `([a-z][a-z0-9_.]*)`\\s*$");
    private static final Pattern FRONT_DOOR = Pattern.compile("^Front door: (.*?)\\. ");
    private static final Pattern BACKTICKED = Pattern.compile("`([a-z][a-z0-9_.]*)`");
    /** A name in {@code dev.jetsink}: its package segments, then a type (upper case) or a wildcard. */
    private static final Pattern REFERENCE =
        Pattern.compile("\\bdev\\.jetsink((?:\\.[a-z_][a-z0-9_]*)*)\\.(?:[A-Z]|\\*)");

    @Test
    void mainCodeKeepsThePackageOrderOfDesign() throws IOException {
        Order order = Order.parse(Files.readString(DESIGN));
        assertThat(order.ranks()).as("the ordered list in DESIGN.md").hasSizeGreaterThan(10)
            .containsKeys("dev.jetsink.internal.config", "dev.jetsink.internal.queue", "dev.jetsink.server.cli");
        assertThat(order.frontDoor()).as("the front door in DESIGN.md")
            .containsExactlyInAnyOrder("dev.jetsink", "dev.jetsink.event", "dev.jetsink.lifecycle");
        Sources sources = Sources.read(MAIN_SOURCES);
        assertThat(sources.files()).as("main source files read").isGreaterThan(200);
        assertThat(order.check(sources)).as("uses against DESIGN.md \"Package order\"").isEmpty();
    }

    @Test
    void anImportUpTheOrderIsReportedWithFileAndLine(@TempDir Path root) throws IOException {
        plant(root, "dev.jetsink.internal.event", "Parser",
            "import java.util.List;\nimport dev.jetsink.internal.queue.Entry;\n");
        plant(root, "dev.jetsink.internal.queue", "Entry", "");
        List<String> found = smallOrder().check(Sources.read(List.of(root)));
        assertThat(found).anySatisfy(f -> assertThat(f)
            .contains("dev/jetsink/internal/event/Parser.java:4")
            .contains("goes up the order").contains("dev.jetsink.internal.queue"));
    }

    @Test
    void aFullyQualifiedNameInCodeCountsAndOneInACommentDoesNot(@TempDir Path root) throws IOException {
        plant(root, "dev.jetsink.internal.event", "Parser", """
            // dev.jetsink.internal.queue.Entry is only mentioned
            /** {@link dev.jetsink.internal.queue.Entry} neither */
            """, "String s = \"dev.jetsink.internal.queue.Entry\";\n",
            "int max = dev.jetsink.internal.queue.Entry.MAX;\n");
        plant(root, "dev.jetsink.internal.queue", "Entry", "");
        List<String> found = smallOrder().check(Sources.read(List.of(root)));
        assertThat(found).singleElement().asString().contains("Parser.java:6").contains("goes up the order");
    }

    @Test
    void aCycleIsReportedWithEveryStep(@TempDir Path root) throws IOException {
        // two front-door packages, outside the order, so only the cycle check can catch them
        plant(root, "dev.jetsink.event", "Record", "import dev.jetsink.lifecycle.Listener;\n");
        plant(root, "dev.jetsink.lifecycle", "Listener", "import dev.jetsink.event.*;\n");
        plant(root, "dev.jetsink.internal.queue", "Entry", "import dev.jetsink.event.Record;\n");
        plant(root, "dev.jetsink.internal.event", "Parser", "");
        List<String> found = smallOrder().check(Sources.read(List.of(root)));
        assertThat(found).singleElement().asString().contains("cycle")
            .contains("dev/jetsink/event/Record.java:3").contains("dev/jetsink/lifecycle/Listener.java:3");
    }

    @Test
    void aPackageOutsideTheListAndAListedPackageWithoutSourcesAreReported(@TempDir Path root) throws IOException {
        plant(root, "dev.jetsink.internal.event", "Parser", "");
        plant(root, "dev.jetsink.internal.extra", "Thing", "");
        List<String> found = smallOrder().check(Sources.read(List.of(root)));
        assertThat(found).anySatisfy(f -> assertThat(f).contains("dev.jetsink.internal.extra").contains("not in"))
            .anySatisfy(f -> assertThat(f).contains("dev.jetsink.internal.queue").contains("no source"));
    }

    @Test
    void aFrontDoorPackageMayNotUseTheServer(@TempDir Path root) throws IOException {
        plant(root, "dev.jetsink.event", "Record", "import static dev.jetsink.server.Cli.run;\n");
        plant(root, "dev.jetsink.lifecycle", "Listener", "");
        plant(root, "dev.jetsink.internal.event", "Parser", "import dev.jetsink.event.Record;\n");
        plant(root, "dev.jetsink.internal.queue", "Entry", "");
        plant(root, "dev.jetsink.server", "Cli", "import dev.jetsink.lifecycle.Listener;\n");
        Order withServer = Order.parse(SMALL_DESIGN.replace("2. `dev.jetsink.internal.queue`",
            "2. `dev.jetsink.internal.queue`\n3. `dev.jetsink.server`"));
        assertThat(withServer.check(Sources.read(List.of(root)))).singleElement().asString()
            .contains("dev/jetsink/event/Record.java:3").contains("goes up the order");
    }

    private static final String SMALL_DESIGN = """
        ### Package order

        Some prose.

        1. `dev.jetsink.internal.event`
        2. `dev.jetsink.internal.queue`

        Front door: `dev.jetsink.event`, `dev.jetsink.lifecycle`. More prose.

        ## Next
        1. `dev.jetsink.not.this`
        """;

    private static Order smallOrder() {
        Order order = Order.parse(SMALL_DESIGN);
        assertThat(order.ranks()).containsOnlyKeys("dev.jetsink.internal.event", "dev.jetsink.internal.queue");
        return order;
    }

    private static void plant(Path root, String pkg, String type, String... body) throws IOException {
        Path dir = root.resolve(pkg.replace('.', '/'));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(type + ".java"), "package " + pkg + ";\n\n" + String.join("", body)
            + "\nfinal class " + type + " {\n}\n");
    }

    /** The ordered list and the front door of the "Package order" section. */
    record Order(Map<String, Integer> ranks, Set<String> frontDoor) {
        static Order parse(String design) {
            Map<String, Integer> ranks = new LinkedHashMap<>();
            Set<String> frontDoor = new LinkedHashSet<>();
            boolean inSection = false;
            for (String line : design.split("\n")) {
                if (line.startsWith("#")) {
                    inSection = line.equals("### Package order");
                    continue;
                }
                Matcher listed = LISTED.matcher(line);
                Matcher front = FRONT_DOOR.matcher(line);
                if (inSection && listed.matches()) {
                    ranks.put(listed.group(1), ranks.size());
                } else if (inSection && front.find()) {
                    BACKTICKED.matcher(front.group(1)).results().forEach(m -> frontDoor.add(m.group(1)));
                }
            }
            return new Order(ranks, frontDoor);
        }

        /** Every problem found, one line each. */
        List<String> check(Sources sources) {
            List<String> problems = new ArrayList<>();
            for (String pkg : sources.packages()) {
                if (!ranks.containsKey(pkg) && !frontDoor.contains(pkg)) {
                    problems.add("package " + pkg + " is not in DESIGN.md \"Package order\"");
                }
            }
            for (String pkg : ranks.keySet()) {
                if (!sources.packages().contains(pkg)) {
                    problems.add("package " + pkg + " is listed in DESIGN.md \"Package order\" but has no source");
                }
            }
            Map<String, Map<String, String>> checked = new TreeMap<>();
            for (Use u : sources.uses()) {
                if (goesUp(u)) {
                    problems.add(u.where() + ": " + u.from() + " uses " + u.to() + ", which goes up the order");
                }
                if (!exempt(u)) {
                    checked.computeIfAbsent(u.from(), k -> new TreeMap<>()).putIfAbsent(u.to(), u.where());
                }
            }
            problems.addAll(cycles(checked));
            return problems;
        }

        private boolean goesUp(Use u) {
            Integer from = ranks.get(u.from());
            Integer to = ranks.get(u.to());
            if (from != null && to != null) {
                return to > from;
            }
            // the front door may use any package of the library, none of the server
            return frontDoor.contains(u.from()) && u.to().startsWith("dev.jetsink.server");
        }

        // the front door and the internal packages that implement it may know each other
        private boolean exempt(Use u) {
            return frontDoor.contains(u.from()) != frontDoor.contains(u.to())
                && !u.from().startsWith("dev.jetsink.server") && !u.to().startsWith("dev.jetsink.server");
        }

        private static List<String> cycles(Map<String, Map<String, String>> graph) {
            List<String> found = new ArrayList<>();
            Set<Set<String>> seen = new HashSet<>();
            for (String start : graph.keySet()) {
                Deque<String> path = new ArrayDeque<>();
                path.add(start);
                walk(graph, start, path, found, seen);
            }
            return found;
        }

        private static void walk(Map<String, Map<String, String>> graph, String start, Deque<String> path,
                                 List<String> found, Set<Set<String>> seen) {
            for (String next : graph.getOrDefault(path.getLast(), Map.of()).keySet()) {
                if (next.equals(start)) {
                    List<String> loop = new ArrayList<>(path);
                    if (seen.add(new TreeSet<>(loop))) {
                        StringBuilder b = new StringBuilder("cycle:");
                        for (int i = 0; i < loop.size(); i++) {
                            String to = loop.get((i + 1) % loop.size());
                            b.append(i == 0 ? " " : ", ").append(loop.get(i)).append(" -> ").append(to)
                                .append(" (").append(graph.get(loop.get(i)).get(to)).append(')');
                        }
                        found.add(b.toString());
                    }
                } else if (!path.contains(next) && next.compareTo(start) > 0) {
                    // each cycle is walked from its least package only
                    path.addLast(next);
                    walk(graph, start, path, found, seen);
                    path.removeLast();
                }
            }
        }
    }

    /** One use of a package by another, where it is written. */
    record Use(String from, String to, String where) {
    }

    /** The packages and the cross-package uses of some source trees. */
    record Sources(int files, Set<String> packages, List<Use> uses) {
        static Sources read(List<Path> roots) throws IOException {
            int files = 0;
            Set<String> packages = new TreeSet<>();
            List<Use> uses = new ArrayList<>();
            for (Path root : roots) {
                List<Path> javas;
                try (Stream<Path> walk = Files.walk(root)) {
                    javas = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
                }
                for (Path file : javas) {
                    files++;
                    String pkg = root.relativize(file.getParent()).toString().replace(java.io.File.separatorChar, '.');
                    packages.add(pkg);
                    String[] lines = codeOnly(Files.readString(file)).split("\n", -1);
                    for (int i = 0; i < lines.length; i++) {
                        if (lines[i].strip().startsWith("package ")) {
                            continue;
                        }
                        Matcher m = REFERENCE.matcher(lines[i]);
                        while (m.find()) {
                            String to = "dev.jetsink" + m.group(1);
                            if (!to.equals(pkg)) {
                                String where = root.relativize(file).toString().replace('\\', '/') + ":" + (i + 1);
                                uses.add(new Use(pkg, to, where));
                            }
                        }
                    }
                }
            }
            return new Sources(files, packages, uses);
        }

        /** The source with comments and string and character literals blanked, lines kept. */
        static String codeOnly(String source) {
            StringBuilder out = new StringBuilder(source.length());
            int i = 0;
            while (i < source.length()) {
                String closer = source.startsWith("//", i) ? "\n" : source.startsWith("/*", i) ? "*/"
                    : source.startsWith("\"\"\"", i) ? "\"\"\"" : source.charAt(i) == '"' ? "\""
                    : source.charAt(i) == '\'' ? "'" : null;
                if (closer == null) {
                    out.append(source.charAt(i++));
                    continue;
                }
                int from = i;
                boolean escapes = closer.startsWith("\"") || closer.equals("'");
                i += closer.equals("\n") || closer.equals("*/") ? 2 : closer.length();
                while (i < source.length() && !source.startsWith(closer, i)) {
                    i += escapes && source.charAt(i) == '\\' ? 2 : 1;
                }
                i = Math.min(source.length(), i + (closer.equals("\n") ? 0 : closer.length()));
                for (int k = from; k < i; k++) {
                    out.append(source.charAt(k) == '\n' ? '\n' : ' ');
                }
            }
            return out.toString();
        }
    }
}
