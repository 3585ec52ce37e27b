package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The config file of {@code --config FILE}: the env file the systemd unit reads with
 * {@code EnvironmentFile=}, read with systemd's rules ({@link EnvironmentFileSyntax}) so that
 * {@code check-config --config} and the service see the same values. Lines systemd ignores are
 * reported by line number, never by content.
 */
final class ConfigFile {

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
        String text;
        try {
            // strict: systemd refuses a file that is not UTF-8, so a lenient decode would differ
            text = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (CharacterCodingException e) {
            problems.add(problem(file.toString(), "config file " + file + " is not valid UTF-8"));
            return new Contents(variables, problems);
        } catch (IOException e) {
            problems.add(problem(file.toString(), "cannot read config file: " + e.getClass().getSimpleName()));
            return new Contents(variables, problems);
        }
        if (text.startsWith("\uFEFF")) {
            problems.add(problem(file + ":1", "config file " + file
                + " starts with a byte order mark, which systemd reads as part of the first name: save it without one"));
        }
        EnvironmentFileSyntax.Result parsed = EnvironmentFileSyntax.parse(text);
        parsed.assignments().forEach(a -> variables.put(a.name(), a.value()));
        parsed.issues().forEach(i -> problems.add(problem(file + ":" + i.line(), i.message() + " (in " + file + ")")));
        return new Contents(variables, problems);
    }

    private static ConfigProblem problem(String where, String message) {
        return new ConfigProblem("config file", where, message, ConfigProblem.Category.FILE);
    }
}
