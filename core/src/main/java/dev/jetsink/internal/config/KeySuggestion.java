package dev.jetsink.internal.config;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean": the known name nearest to a mistyped one, by edit distance. */
final class KeySuggestion {
    private KeySuggestion() {
    }

    /** The known name closest to {@code unknown}, if it is close enough to be a typo. */
    public static Optional<String> nearest(String unknown, Collection<String> known) {
        return best(unknown, known).filter(m -> closeEnough(unknown, m.distance)).map(m -> m.name);
    }

    /**
     * For a variable under a kind's prefix: the nearest known variable, carrying over an instance
     * suffix, so {@code ..._JETSTREM_ENABLE_PRIMARY} suggests {@code ..._JETSTREAM_ENABLE_PRIMARY}.
     */
    public static Optional<String> forTargetVariable(TargetKind kind, String variable) {
        String rest = variable.substring(kind.envPrefix().length());
        Collection<String> keys = java.util.Arrays.stream(ConfigKey.values())
            .filter(ConfigKey::hasEnvForm).map(k -> k.name()).toList();
        String bestVariable = null;
        int bestDistance = Integer.MAX_VALUE;
        // Whole remainder first, then ever shorter heads: on a tie the longer head wins.
        for (int cut = rest.length(); cut > 0; cut = rest.lastIndexOf('_', cut - 1)) {
            String head = rest.substring(0, cut);
            String suffix = cut < rest.length() ? rest.substring(cut + 1) : "";
            if (cut < rest.length() && suffix.isEmpty()) {
                continue;
            }
            Optional<Match> m = best(head, keys);
            if (m.isPresent() && m.get().distance < bestDistance && closeEnough(head, m.get().distance)) {
                bestDistance = m.get().distance;
                bestVariable = kind.envPrefix() + m.get().name + (suffix.isEmpty() ? "" : "_" + suffix);
            }
        }
        return Optional.ofNullable(bestVariable);
    }

    /**
     * For a variable under none of {@code prefixes}: the same variable under the prefix its head
     * nearly spells, so {@code RUSTFS_AUIDT_NATS_ENABLE} suggests {@code RUSTFS_AUDIT_NATS_ENABLE}.
     * The head is tried with one token fewer and one more than the prefix has, for a dropped or an
     * added underscore. At most two edits: a store's other targets share the start of the name
     * ({@code RUSTFS_NOTIFY_MQTT_} is three edits from {@code RUSTFS_NOTIFY_NATS_}).
     *
     * @param prefixes known prefixes, each ending in {@code _}
     */
    public static Optional<String> forMistypedPrefix(String variable, Collection<String> prefixes) {
        String bestVariable = null;
        int bestDistance = MAX_PREFIX_EDITS + 1;
        for (String prefix : prefixes) {
            if (variable.startsWith(prefix)) {
                return Optional.empty();
            }
            int tokens = (int) prefix.chars().filter(c -> c == '_').count();
            for (int n = Math.max(1, tokens - 1); n <= tokens + 1; n++) {
                int end = nthUnderscore(variable, n);
                if (end < 0 || end + 1 >= variable.length()) {
                    continue;
                }
                int d = distance(variable.substring(0, end + 1), prefix);
                if (d < bestDistance && d * 2 < prefix.length()) {
                    bestDistance = d;
                    bestVariable = prefix + variable.substring(end + 1);
                }
            }
        }
        return Optional.ofNullable(bestVariable);
    }

    /** Prefix typos are kept to two edits; see {@link #forMistypedPrefix}. */
    static final int MAX_PREFIX_EDITS = 2;

    private static int nthUnderscore(String s, int n) {
        int at = -1;
        for (int i = 0; i < n; i++) {
            at = s.indexOf('_', at + 1);
            if (at < 0) {
                return -1;
            }
        }
        return at;
    }

    /** The unknown-key text, with a suggestion when one is close. */
    static String unknownKeyMessage(String name, Optional<String> suggestion) {
        return "unknown configuration key " + name + suggestion.map(s -> " (did you mean " + s + "?)").orElse("");
    }

    private record Match(String name, int distance) {
    }

    private static Optional<Match> best(String unknown, Collection<String> known) {
        Match best = null;
        for (String k : known) {
            int d = distance(unknown, k);
            if (best == null || d < best.distance) {
                best = new Match(k, d);
            }
        }
        return Optional.ofNullable(best);
    }

    // A typo is a few edits, and never half the word.
    private static boolean closeEnough(String unknown, int distance) {
        return distance > 0 && distance <= 3 && distance * 2 < unknown.length();
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
