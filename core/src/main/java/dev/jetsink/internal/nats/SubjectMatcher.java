package dev.jetsink.internal.nats;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a stream subject filter captures a publish subject, by NATS rules: tokens are
 * separated by {@code .}; {@code *} matches exactly one token; {@code >} as the last token matches
 * one or more trailing tokens; everything else matches literally. The publish subject itself is
 * always literal; {@link #covers} also compares a filter with a template's subject space.
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

    /**
     * True when {@code filter} captures every subject {@code pattern} (a subject filter itself, with
     * {@code *} and {@code >}) matches. For a literal pattern this is {@link #captures}.
     */
    public static boolean covers(String filter, String pattern) {
        String[] f = filter.split("\\.", -1);
        String[] p = pattern.split("\\.", -1);
        for (int i = 0; i < f.length; i++) {
            if (f[i].isEmpty() || (i < p.length && p[i].isEmpty())) {
                return false;
            }
            if (f[i].equals(">")) {
                return i == f.length - 1 && p.length > i;
            }
            if (i >= p.length || p[i].equals(">")) {
                return false;
            }
            if (!f[i].equals("*") && !f[i].equals(p[i])) {
                return false;
            }
        }
        return f.length == p.length;
    }

    /**
     * A subject {@code pattern} matches that none of {@code filters} captures, to show an operator
     * what a stream would miss; empty when the filters cover the pattern.
     */
    public static Optional<String> missed(List<String> filters, String pattern) {
        if (filters.stream().anyMatch(f -> covers(f, pattern))) {
            return Optional.empty();
        }
        String[] p = pattern.split("\\.", -1);
        for (int tail = 1; tail <= 3; tail++) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < p.length; i++) {
                if (i > 0) {
                    b.append('.');
                }
                if (p[i].equals("*")) {
                    b.append(unusedToken(filters, "example"));
                } else if (p[i].equals(">")) {
                    for (int t = 0; t < tail; t++) {
                        b.append(t == 0 ? "" : ".").append(unusedToken(filters, "example"));
                    }
                } else {
                    b.append(p[i]);
                }
            }
            String candidate = b.toString();
            if (filters.stream().noneMatch(f -> captures(f, candidate))) {
                return Optional.of(candidate);
            }
        }
        return Optional.of(pattern);
    }

    /** {@code base}, or {@code base2}, {@code base3}... : the first that no filter names as a token. */
    private static String unusedToken(List<String> filters, String base) {
        Set<String> named = new HashSet<>();
        filters.forEach(f -> named.addAll(Arrays.asList(f.split("\\."))));
        String token = base;
        for (int n = 2; named.contains(token); n++) {
            token = base + n;
        }
        return token;
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
