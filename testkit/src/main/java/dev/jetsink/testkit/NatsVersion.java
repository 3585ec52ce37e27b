package dev.jetsink.testkit;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A nats-server release number, {@code 2.15.1}, as {@code nats-server --version} prints it
 * ({@code nats-server: v2.15.1}) or as a cache folder is named. Tests whose expectations differ
 * between server generations compare against it ({@link #atLeast(String)}).
 *
 * @param major first number
 * @param minor second number
 * @param patch third number
 */
public record NatsVersion(int major, int minor, int patch) implements Comparable<NatsVersion> {

    private static final Pattern NUMBER = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");

    /** Reads the first {@code x.y.z} in {@code text}; throws when there is none. */
    public static NatsVersion parse(String text) {
        return tryParse(text).orElseThrow(() -> new IllegalStateException("no nats-server version in: " + text));
    }

    /** Reads the first {@code x.y.z} in {@code text}, if any. */
    public static Optional<NatsVersion> tryParse(String text) {
        Matcher m = NUMBER.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new NatsVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3))));
    }

    /** Whether this release is {@code other} or newer. */
    public boolean atLeast(String other) {
        return compareTo(parse(other)) >= 0;
    }

    @Override
    public int compareTo(NatsVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
