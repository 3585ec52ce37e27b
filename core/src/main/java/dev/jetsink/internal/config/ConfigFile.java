package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The config file of {@code --config FILE}: {@code NAME=value} lines with the variable names
 * of the environment, {@code #} comment lines and blank lines. The value is everything after the
 * first {@code =}, trimmed; there is no quoting.
 */
final class ConfigFile {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * The variables of a file and the problems in it.
     *
     * @param variables name to value, in file order (a later line wins)
     * @param problems  the unreadable file, or each malformed line by file and line number
     */
    public record Contents(Map<String, String> variables, List<ConfigProblem> problems) {
    }

    private ConfigFile() {
    }

    /** Reads {@code file}; never throws, every problem is in the result. */
    public static Contents read(Path file) {
        Map<String, String> variables = new LinkedHashMap<>();
        List<ConfigProblem> problems = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            problems.add(new ConfigProblem("config file", file.toString(),
                "cannot read config file: " + e.getClass().getSimpleName(), ConfigProblem.Category.FILE));
            return new Contents(variables, problems);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String name = eq < 0 ? "" : line.substring(0, eq).strip();
            if (!NAME.matcher(name).matches()) {
                // The line is not echoed: it may hold a password.
                problems.add(new ConfigProblem("config file", file + ":" + (i + 1),
                    "malformed line " + (i + 1) + " in " + file + " (expected NAME=value)",
                    ConfigProblem.Category.FILE));
                continue;
            }
            variables.put(name, line.substring(eq + 1).strip());
        }
        return new Contents(variables, problems);
    }
}
