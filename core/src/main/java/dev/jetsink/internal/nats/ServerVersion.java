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
     * The first release with the fixes for replicas that diverge after a leader change and lose
     * acknowledged messages (nats-server #6485 in 2.11.0, #7209 in 2.11.9 and 2.12.0).
     */
    public static final String REPLICATION_FIXED = "2.11.9";

    private ServerVersion() {
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
        if (info.isOlderThanVersion(REPLICATION_FIXED)) {
            return Optional.of("nats-server " + version + " predates the fixes (" + REPLICATION_FIXED + ") for replicated"
                    + " streams that lose acknowledged messages after a leader change; jetsink works with it, but"
                    + " an R3 stream's acknowledgement is only as good as the server: upgrade"
                    + " (OPERATIONS, \"Which nats-server\")");
        }
        return Optional.empty();
    }
}
