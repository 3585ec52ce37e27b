package dev.jetsink.nats;

/**
 * Decides whether a stream subject filter captures a publish subject, by NATS rules: tokens are
 * separated by {@code .}; {@code *} matches exactly one token; {@code >} as the last token matches
 * one or more trailing tokens; everything else matches literally. The publish subject itself is
 * always literal.
 */
final class SubjectMatcher {

    private SubjectMatcher() {
    }

    /** True when {@code filter} captures {@code subject}. Malformed input (empty tokens) never matches. */
    public static boolean captures(String filter, String subject) {
        String[] f = filter.split("\\.", -1);
        String[] s = subject.split("\\.", -1);
        for (int i = 0; i < f.length; i++) {
            String token = f[i];
            if (token.isEmpty()) {
                return false;
            }
            if (token.equals(">")) {
                // Only valid as the last filter token, and it needs at least one subject token left.
                return i == f.length - 1 && s.length > i && allNonEmpty(s, i);
            }
            if (i >= s.length || s[i].isEmpty()) {
                return false;
            }
            if (!token.equals("*") && !token.equals(s[i])) {
                return false;
            }
        }
        return f.length == s.length;
    }

    private static boolean allNonEmpty(String[] tokens, int from) {
        for (int i = from; i < tokens.length; i++) {
            if (tokens[i].isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
