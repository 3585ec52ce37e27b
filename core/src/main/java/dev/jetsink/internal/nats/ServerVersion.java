package dev.jetsink.internal.nats;

import io.nats.client.api.ServerInfo;
import java.util.Optional;

/**
 * What jetsink says about the nats-server version a connection reached, read from the server's
 * {@code INFO}. jetsink is proven against Debian's current nats-server and, in a compatibility pass,
 * against {@value #OLDEST_TESTED}; an older server is one nothing here has run against, so the
 * operator is warned (DESIGN.md "Server versions").
 */
public final class ServerVersion {

    /** The oldest nats-server the test suite's compatibility pass runs against. */
    public static final String OLDEST_TESTED = "2.9.10";
    /**
     * The releases with the fixes for replicas that diverge after a leader change and lose
     * acknowledged messages: nats-server #6485 (2.11.0) and #7209 (2.11.9, 2.12.0), and #7424, which
     * repairs a desync #7209 brought in (2.11.11, 2.12.1, and every release from 2.14.0 on).
     * 2.11.9, 2.11.10 and 2.12.0 have the first fix without the repair. See {@link #replicationFixed}.
     */
    public static final String REPLICATION_FIXED = "2.11.11 on the 2.11 line, 2.12.1 and newer";

    private ServerVersion() {
    }

    /**
     * Whether nats-server {@code version} ("2.11.11", "v2.12.1", "2.14.0-RC.1") has the replication
     * fixes: 2.11.11 or newer on the 2.11 line, else 2.12.1 or newer. A version it cannot read has not.
     */
    public static boolean replicationFixed(String version) {
        String[] parts = version.strip().replaceFirst("^v", "").split("[.-]", 4);
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            int patch = parts.length > 2 ? Integer.parseInt(parts[2]) : 0;
            if (major != 2) {
                return major > 2;
            }
            return minor == 11 ? patch >= 11 : minor > 12 || minor == 12 && patch >= 1;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The warning for a server older than {@link #OLDEST_TESTED}, or empty when it is as old or newer. */
    public static Optional<String> warning(ServerInfo info) {
        String version = info.getVersion();
        if (version == null || version.isBlank()) {
            return Optional.of("the NATS server did not say its version; jetsink is tested with nats-server "
                    + OLDEST_TESTED + " and newer");
        }
        if (info.isOlderThanVersion(OLDEST_TESTED)) {
            return Optional.of("nats-server " + version + " is older than " + OLDEST_TESTED
                    + ", the oldest jetsink is tested with; upgrade the server (OPERATIONS, \"Which nats-server\")");
        }
        if (!replicationFixed(version)) {
            return Optional.of("nats-server " + version + " predates the fixes (" + REPLICATION_FIXED + ") for replicated"
                    + " streams that lose acknowledged messages after a leader change; jetsink works with it, but"
                    + " an R3 stream's acknowledgement is only as good as the server: upgrade"
                    + " (OPERATIONS, \"Which nats-server\")");
        }
        return Optional.empty();
    }
}
