package dev.jetsink.internal.config;

import dev.jetsink.internal.config.EnvironmentFileSyntax.Assignment;
import dev.jetsink.internal.config.EnvironmentFileSyntax.Issue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The env file reads as systemd's {@code EnvironmentFile=} reads it (systemd.exec(5)): one row per
 * rule, the file's text and the variables the service manager would set from it.
 */
class EnvironmentFileSyntaxTest {

    static Stream<Arguments> rules() {
        return Stream.of(
            row("a plain assignment", "A=1\n", "A", "1"),
            row("the last line needs no newline", "A=1", "A", "1"),
            row("blank lines and # and ; comments are skipped", "\n# A=1\n; B=2\n   # C=3\n\nD=4\n", "D", "4"),
            row("a # after a value is part of the value", "A=1 # not a comment\n", "A", "1 # not a comment"),
            row("leading whitespace of the line and around the name is dropped", "  \tA =1\n", "A", "1"),
            row("whitespace around an unquoted value is dropped, inner whitespace kept", "A=   x  y \t \n", "A", "x  y"),
            row("an = in the value is kept", "A=b=c==\n", "A", "b=c=="),
            row("an empty value sets the variable to empty", "A=\n", "A", ""),
            row("a later line wins", "A=1\nA=2\n", "A", "2"),
            row("quotes after the first character of a value are kept", "A=x \"y\" 'z'\n", "A", "x \"y\" 'z'"),
            row("single quotes keep everything verbatim", "A='  $x \\n \"y\" '\n", "A", "  $x \\n \"y\" "),
            row("a single-quoted value spans lines", "A='one\ntwo'\nB=3\n", "A", "one\ntwo", "B", "3"),
            row("double quotes keep whitespace", "A=\"  x  \"\n", "A", "  x  "),
            row("in double quotes a backslash escapes \" \\ ` $", "A=\"q\\\" b\\\\ t\\` d\\$\"\n", "A", "q\" b\\ t` d$"),
            row("in double quotes a backslash before other characters is kept", "A=\"a\\nb\\x\"\n", "A", "a\\nb\\x"),
            row("in double quotes a backslash before a newline joins the lines", "A=\"one\\\ntwo\"\n", "A", "onetwo"),
            row("a double-quoted value spans lines", "A=\"one\ntwo\"\n", "A", "one\ntwo"),
            row("whitespace outside the quotes is dropped", "A=  \"x\"  \n", "A", "x"),
            row("quoted parts join", "A=\"x\"'y'z\n", "A", "xyz"),
            row("text after a closing quote joins it, blanks between dropped (no trailing comments)",
                "A=\"Carolina\" # your id\n", "A", "Carolina# your id"),
            row("outside quotes a backslash keeps the next character", "A=a\\\\b\\\"c\\ \n", "A", "a\\b\"c "),
            row("outside quotes a trailing backslash continues the line", "A=one \\\ntwo\nB=3\n", "A", "one two", "B", "3"),
            row("a value starting with a backslash", "A=\\$HOME\n", "A", "$HOME"),
            row("$ is not expanded", "A=$HOME/x\n", "A", "$HOME/x"),
            row("carriage returns end lines (CRLF files)", "A=1\r\nB= 2 \r\n", "A", "1", "B", "2"),
            row("a comment ending with a backslash does not swallow the next line (systemd 254+)",
                "# comment \\\nA=1\n", "A", "1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void readsAsSystemdReadsIt(String rule, String text, Map<String, String> expected) {
        assertThat(variables(EnvironmentFileSyntax.parse(text))).as(rule).containsExactlyEntriesOf(expected);
    }

    static Stream<Arguments> ignoredLines() {
        return Stream.of(
            arguments("export is not understood: the line is ignored", "export A=secret1\n", 1, "starts with 'export'"),
            arguments("a line without = is ignored", "B=2\nsecret1\n", 2, "has no '='"),
            arguments("a name with a space is ignored", "A B=secret1\n", 1, "is not a variable name"),
            arguments("a name starting with a digit is ignored", "1A=secret1\n", 1, "is not a variable name"),
            arguments("a name with a dash is ignored", "A-B=secret1\n", 1, "is not a variable name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ignoredLines")
    void aLineSystemdIgnoresSetsNothingAndIsAnIssueWithoutItsText(String rule, String text, int line, String message) {
        EnvironmentFileSyntax.Result r = EnvironmentFileSyntax.parse(text);
        assertThat(r.assignments()).extracting(Assignment::value).doesNotContain("secret1");
        assertThat(r.issues()).singleElement().satisfies(i -> {
            assertThat(i.line()).isEqualTo(line);
            assertThat(i.message()).contains(message).doesNotContain("secret1");
        });
    }

    @Test
    void anUnclosedQuoteTakesTheRestOfTheFileAndIsAnIssue() {
        EnvironmentFileSyntax.Result r = EnvironmentFileSyntax.parse("A=1\nB=\"secret1\nC=3\n");
        assertThat(variables(r)).containsExactly(Map.entry("A", "1"), Map.entry("B", "secret1\nC=3\n"));
        assertThat(r.issues()).extracting(Issue::line).containsExactly(2);
        assertThat(r.issues().get(0).message()).contains("never closed").doesNotContain("secret1");
    }

    @Test
    void aCommentEndingWithABackslashIsAnIssueBecauseSystemdVersionsDisagree() {
        EnvironmentFileSyntax.Result r = EnvironmentFileSyntax.parse("A=1\n# note \\\nB=2\n");
        assertThat(r.issues()).singleElement().satisfies(i -> {
            assertThat(i.line()).isEqualTo(2);
            assertThat(i.message()).contains("ends with a backslash");
        });
    }

    @Test
    void assignmentsCarryTheLineTheyStartOn() {
        EnvironmentFileSyntax.Result r = EnvironmentFileSyntax.parse("# c\n\nA='x\ny'\nB=1\n");
        assertThat(r.assignments()).extracting(Assignment::name, Assignment::line)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("A", 3), org.assertj.core.groups.Tuple.tuple("B", 5));
    }

    private static Map<String, String> variables(EnvironmentFileSyntax.Result r) {
        Map<String, String> m = new LinkedHashMap<>();
        r.assignments().forEach(a -> m.put(a.name(), a.value()));
        return m;
    }

    private static Arguments row(String rule, String text, String... nameValues) {
        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            expected.put(nameValues[i], nameValues[i + 1]);
        }
        return arguments(rule, text, expected);
    }
}
