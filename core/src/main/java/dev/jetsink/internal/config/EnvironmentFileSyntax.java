package dev.jetsink.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The syntax of a systemd {@code EnvironmentFile=} (systemd.exec(5), "EnvironmentFile="), so that
 * {@code --config FILE} reads the same values the service manager passes to the daemon:
 * <ul>
 *   <li>blank lines and lines whose first non-blank character is {@code #} or {@code ;} are
 *       skipped; there are no comments after a value;</li>
 *   <li>leading whitespace of a line and whitespace around the name are dropped;</li>
 *   <li>an unquoted value: leading and trailing spaces, tabs and carriage returns are dropped,
 *       inner whitespace and quotes are kept, a backslash keeps the character after it and a
 *       backslash at the end of the line joins the next line;</li>
 *   <li>{@code '...'}: everything verbatim up to the next single quote, newlines included;</li>
 *   <li>{@code "..."}: newlines included; a backslash before {@code " \ ` $} keeps that character,
 *       before a newline joins the lines, and before anything else is kept with it;</li>
 *   <li>quoted and unquoted parts right after the {@code =} join into one value
 *       ({@code A="x"'y'} is {@code xy});</li>
 *   <li>a line without {@code =} and a name that is not letters, digits and {@code _} (not
 *       starting with a digit) are ignored by systemd, so {@code export NAME=value} sets
 *       nothing.</li>
 * </ul>
 * What systemd ignores or reads in a way that is almost surely a mistake is returned as an
 * {@link Issue}, which names the line and never holds its text (a value may be a secret).
 */
final class EnvironmentFileSyntax {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String NEWLINE = "\n\r";
    private static final String BLANK = " \t\n\r";
    /* The characters a backslash escapes inside double quotes, as in a POSIX shell. */
    private static final String DOUBLE_QUOTE_ESCAPED = "\"\\`$";

    /** One {@code NAME=value} the service manager would set; {@code line} is where it starts. */
    record Assignment(int line, String name, String value) {
    }

    /** A line systemd ignores or reads surprisingly; the message holds no text of the line. */
    record Issue(int line, String message) {
    }

    /** The assignments in file order (a later one for the same name wins) and the issues. */
    record Result(List<Assignment> assignments, List<Issue> issues) {
    }

    private enum State {
        BEFORE_NAME, NAME, BEFORE_VALUE, VALUE, VALUE_ESCAPE,
        SINGLE_QUOTED, DOUBLE_QUOTED, DOUBLE_QUOTED_ESCAPE, COMMENT, COMMENT_ESCAPE
    }

    private EnvironmentFileSyntax() {
    }

    static Result parse(String text) {
        return new Parse().run(text);
    }

    /** One pass over the text; a state per character, as systemd's reader works. */
    private static final class Parse {
        private final List<Assignment> assignments = new ArrayList<>();
        private final List<Issue> issues = new ArrayList<>();
        private final StringBuilder name = new StringBuilder();
        private final StringBuilder value = new StringBuilder();
        /* Where trailing whitespace of the name or an unquoted value starts; -1 when none. */
        private int nameBlankFrom = -1;
        private int valueBlankFrom = -1;
        private int line = 1;
        private int startLine = 1;
        private int quoteLine = 1;

        Result run(String text) {
            State state = State.BEFORE_NAME;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                state = step(state, c);
                if (c == '\n') {
                    line++;
                }
            }
            switch (state) {
                case BEFORE_VALUE, VALUE, VALUE_ESCAPE -> end(state);
                case SINGLE_QUOTED, DOUBLE_QUOTED, DOUBLE_QUOTED_ESCAPE -> {
                    issues.add(new Issue(quoteLine, "the quote opened on line " + quoteLine
                        + " is never closed: systemd reads everything to the end of the file into the value"));
                    end(state);
                }
                case NAME -> noEquals();
                default -> {
                }
            }
            return new Result(List.copyOf(assignments), List.copyOf(issues));
        }

        private State step(State state, char c) {
            switch (state) {
                case BEFORE_NAME:
                    if (c == '#' || c == ';') {
                        return State.COMMENT;
                    }
                    if (BLANK.indexOf(c) < 0) {
                        startLine = line;
                        name.setLength(0);
                        value.setLength(0);
                        nameBlankFrom = -1;
                        name.append(c);
                        return State.NAME;
                    }
                    return state;
                case NAME:
                    if (NEWLINE.indexOf(c) >= 0) {
                        noEquals();
                        return State.BEFORE_NAME;
                    }
                    if (c == '=') {
                        valueBlankFrom = -1;
                        return State.BEFORE_VALUE;
                    }
                    if (BLANK.indexOf(c) < 0) {
                        nameBlankFrom = -1;
                    } else if (nameBlankFrom < 0) {
                        nameBlankFrom = name.length();
                    }
                    name.append(c);
                    return state;
                case BEFORE_VALUE:
                    if (NEWLINE.indexOf(c) >= 0) {
                        end(state);
                        return State.BEFORE_NAME;
                    }
                    if (c == '\'' || c == '"') {
                        quoteLine = line;
                        return c == '\'' ? State.SINGLE_QUOTED : State.DOUBLE_QUOTED;
                    }
                    if (c == '\\') {
                        return State.VALUE_ESCAPE;
                    }
                    if (BLANK.indexOf(c) < 0) {
                        value.append(c);
                        return State.VALUE;
                    }
                    return state;
                case VALUE:
                    if (NEWLINE.indexOf(c) >= 0) {
                        end(state);
                        return State.BEFORE_NAME;
                    }
                    if (c == '\\') {
                        valueBlankFrom = -1;
                        return State.VALUE_ESCAPE;
                    }
                    if (BLANK.indexOf(c) < 0) {
                        valueBlankFrom = -1;
                    } else if (valueBlankFrom < 0) {
                        valueBlankFrom = value.length();
                    }
                    value.append(c);
                    return state;
                case VALUE_ESCAPE:
                    // a backslash before a line break joins the lines; before anything else it keeps it
                    if (NEWLINE.indexOf(c) < 0) {
                        value.append(c);
                    }
                    return State.VALUE;
                case SINGLE_QUOTED:
                    if (c == '\'') {
                        return State.BEFORE_VALUE;
                    }
                    value.append(c);
                    return state;
                case DOUBLE_QUOTED:
                    if (c == '"') {
                        return State.BEFORE_VALUE;
                    }
                    if (c == '\\') {
                        return State.DOUBLE_QUOTED_ESCAPE;
                    }
                    value.append(c);
                    return state;
                case DOUBLE_QUOTED_ESCAPE:
                    if (DOUBLE_QUOTE_ESCAPED.indexOf(c) >= 0) {
                        value.append(c);
                    } else if (c != '\n') {
                        value.append('\\').append(c);
                    }
                    return State.DOUBLE_QUOTED;
                case COMMENT:
                    if (c == '\\') {
                        return State.COMMENT_ESCAPE;
                    }
                    return NEWLINE.indexOf(c) >= 0 ? State.BEFORE_NAME : state;
                case COMMENT_ESCAPE:
                    if (NEWLINE.indexOf(c) >= 0) {
                        // systemd up to 253 continued the comment onto the next line; 254 and later
                        // do not: the next line means different things to different versions.
                        issues.add(new Issue(line, "comment line " + line + " ends with a backslash: systemd before"
                            + " version 254 treats the next line as comment too, later versions do not;"
                            + " remove the backslash"));
                        return State.BEFORE_NAME;
                    }
                    return State.COMMENT;
                default:
                    throw new AssertionError(state);
            }
        }

        private void noEquals() {
            issues.add(new Issue(startLine, "line " + startLine + " has no '=' (expected NAME=value): systemd ignores it"));
        }

        private void end(State state) {
            if (state == State.VALUE && valueBlankFrom >= 0) {
                value.setLength(valueBlankFrom);
            }
            String n = nameBlankFrom >= 0 ? name.substring(0, nameBlankFrom) : name.toString();
            if (NAME.matcher(n).matches()) {
                assignments.add(new Assignment(startLine, n, value.toString()));
            } else if (n.startsWith("export ") || n.startsWith("export\t")) {
                issues.add(new Issue(startLine, "line " + startLine + " starts with 'export', which systemd's"
                    + " EnvironmentFile= does not understand: it ignores the whole line; remove 'export'"));
            } else {
                issues.add(new Issue(startLine, "line " + startLine + ": the name before '=' is not a variable name"
                    + " (letters, digits and _, not starting with a digit): systemd ignores the line"));
            }
        }
    }
}
