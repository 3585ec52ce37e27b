package dev.jetsink.bench;

import java.util.HashMap;
import java.util.Map;

/** The {@code --name value} options every benchmark main takes. */
final class BenchOptions {

    private BenchOptions() {
    }

    static Map<String, String> parse(String[] args) {
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("option without value: " + args[args.length - 1]);
        }
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + args[i]);
            }
            m.put(args[i].substring(2), args[i + 1]);
        }
        return m;
    }
}
