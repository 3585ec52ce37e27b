package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The {@code <VARIABLE>_FILE} form of every secret variable (DESIGN.md "Configuration"): the value
 * names a file whose contents, without trailing line breaks, are the secret. The value is an
 * absolute path, or {@code credential:NAME}, a file of {@code $CREDENTIALS_DIRECTORY}, where systemd
 * puts what the unit's {@code LoadCredential=NAME:...} loaded. Problems name the variable and the
 * path, never the contents.
 */
final class SecretFiles {
    /** Appended to a secret variable's name to give the variable that names its file. */
    static final String SUFFIX = "_FILE";
    /** Prefix of a value naming a systemd credential instead of a path. */
    static final String CREDENTIAL = "credential:";
    /** The variable systemd sets for a unit with {@code LoadCredential=}. */
    static final String CREDENTIALS_DIRECTORY = "CREDENTIALS_DIRECTORY";
    // A secret is a line; a file far larger than any token is the wrong file.
    private static final long MAX_BYTES = 64 * 1024;

    /**
     * The variables with each {@code X_FILE} replaced by {@code X} holding the file's secret.
     *
     * @param variables the variables to read further, without the {@code _FILE} ones
     * @param sources   {@code X} to {@code X_FILE=<value>}, for each secret read from a file
     * @param problems  unreadable files, a variable set in both forms, an unusable value
     */
    record Resolved(Map<String, String> variables, Map<String, String> sources, List<ConfigProblem> problems) {
    }

    private final Optional<Path> credentialsDirectory;

    private SecretFiles(Optional<Path> credentialsDirectory) {
        this.credentialsDirectory = credentialsDirectory;
    }

    /** Reads {@code $CREDENTIALS_DIRECTORY} from the process environment {@code env}. */
    static SecretFiles from(Map<String, String> env) {
        return new SecretFiles(Optional.ofNullable(env.get(CREDENTIALS_DIRECTORY)).filter(v -> !v.isBlank())
            .map(String::trim).map(Path::of));
    }

    /** Resolves every {@code X_FILE} whose {@code X} is a secret variable according to {@code isSecret}. */
    Resolved resolve(Map<String, String> variables, Predicate<String> isSecret) {
        Map<String, String> out = new LinkedHashMap<>(variables);
        Map<String, String> sources = new LinkedHashMap<>();
        List<ConfigProblem> problems = new ArrayList<>();
        variables.forEach((name, value) -> {
            if (!name.endsWith(SUFFIX) || !isSecret.test(name.substring(0, name.length() - SUFFIX.length()))) {
                return;
            }
            String base = name.substring(0, name.length() - SUFFIX.length());
            out.remove(name);
            if (value.isBlank()) {
                return;
            }
            String where = value.trim();
            String target = owner(name);
            if (variables.containsKey(base) && !variables.get(base).isBlank()) {
                out.remove(base);
                problems.add(ConfigProblem.value(target, name, base + " and " + name + " are both set: set one"));
                return;
            }
            try {
                out.put(base, read(name, where));
                sources.put(base, name + "=" + where);
            } catch (Unusable e) {
                problems.add(ConfigProblem.value(target, name, e.getMessage()));
            }
        });
        return new Resolved(out, sources, problems);
    }

    private String read(String variable, String value) {
        Path file = path(variable, value);
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new Unusable(variable + " names " + file + ", a directory, not a file");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new Unusable(variable + " names " + file + ", which is larger than " + MAX_BYTES
                    + " bytes: not a secret file");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new Unusable(variable + " names " + file + ", which does not exist");
        } catch (IOException e) {
            throw new Unusable(variable + " names " + file + ", which cannot be read ("
                + e.getClass().getSimpleName() + ")");
        }
        String secret = new String(bytes, StandardCharsets.UTF_8);
        int end = secret.length();
        while (end > 0 && (secret.charAt(end - 1) == '\n' || secret.charAt(end - 1) == '\r')) {
            end--;
        }
        secret = secret.substring(0, end);
        if (secret.isBlank()) {
            throw new Unusable(variable + " names " + file + ", which is empty");
        }
        return secret;
    }

    private Path path(String variable, String value) {
        if (value.startsWith(CREDENTIAL)) {
            String credential = value.substring(CREDENTIAL.length());
            if (credential.isEmpty() || credential.contains("/") || credential.equals(".") || credential.equals("..")) {
                throw new Unusable(variable + " must name a credential as credential:NAME, without '/': " + value);
            }
            Path dir = credentialsDirectory.orElseThrow(() -> new Unusable(variable + "=" + value
                + " needs $CREDENTIALS_DIRECTORY, which systemd sets for a unit with LoadCredential=" + credential
                + ":<file>; it is not set"));
            return dir.resolve(credential);
        }
        try {
            Path file = Path.of(value);
            if (!file.isAbsolute()) {
                throw new Unusable(variable + " must be an absolute path or credential:NAME: " + value);
            }
            return file;
        } catch (InvalidPathException e) {
            throw new Unusable(variable + " is not a valid path: " + value);
        }
    }

    private static String owner(String variable) {
        for (TargetKind kind : TargetKind.values()) {
            if (variable.startsWith(kind.envPrefix())) {
                return kind.label();
            }
        }
        return variable.startsWith(GlobalSetting.DAEMON_PREFIX) ? "daemon" : "global";
    }

    /** A value that names no readable secret; the message names the variable and the path. */
    private static final class Unusable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message, null, false, false);
        }
    }
}
