package dev.jetsink.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads the end of a server log file for assertion and error messages. */
final class ServerLog {

    private ServerLog() {
    }

    static String tail(Path file, int lines) {
        try {
            if (!Files.exists(file)) {
                return "(no log yet at " + file + ")";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return "--- " + file + " (last " + lines + " lines) ---\n"
                    + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }
}
