package dev.jetsink.server.chaos;

import java.util.List;

/**
 * What the nemesis can do, each undone by its own heal. The name is what the history and the
 * result line's {@code faults=} count call it.
 */
enum FaultKind {
    /** SIGKILL of a daemon, restarted after the hold. */
    DAEMON_KILL("daemon-kill", 3),
    /** SIGTERM of a daemon (a clean stop, exit 0 expected), restarted after the hold. */
    DAEMON_TERM("daemon-term", 2),
    /** SIGKILL of one broker node, restarted on its port and store after the hold. */
    BROKER_KILL("broker-kill", 2),
    /** SIGSTOP of the stream leader's node, SIGCONT after the hold. */
    LEADER_PAUSE("leader-pause", 2),
    /** The stream leader asked to step down through the JetStream API; no hold. */
    LEADER_STEPDOWN("leader-stepdown", 2),
    /** A daemon's proxies reset every connection and refuse new ones. */
    PROXY_CUT("proxy-cut", 2),
    /** A daemon's proxies keep connections open and forward nothing. */
    PROXY_BLACKHOLE("proxy-blackhole", 2),
    /** A daemon's proxies hold every chunk for a while before passing it on. */
    PROXY_SLOW("proxy-slow", 2),
    /** A daemon's queue disk (a tmpfs) filled to the last byte by a ballast file, deleted after the hold. */
    DISK_FULL("disk-full", 2),
    /**
     * A daemon's queue disk read-only: Linux refuses to remount a file system read-only while a
     * file on it is open for writing, so the daemon is SIGKILLed first and started on the
     * read-only disk; the disk takes writes again after the hold (the daemon retries its queue
     * every 10 s).
     */
    DISK_READONLY("disk-readonly", 1);

    final String label;
    /** Relative weight in the schedule. */
    final int weight;

    FaultKind(String label, int weight) {
        this.label = label;
        this.weight = weight;
    }

    boolean hitsProxies() {
        return this == PROXY_CUT || this == PROXY_BLACKHOLE || this == PROXY_SLOW;
    }

    /** The resources the fault occupies, in lock order, so two faults never fight over one thing. */
    List<String> resources(int subject) {
        return switch (this) {
            case DAEMON_KILL, DAEMON_TERM -> List.of("daemon-" + subject);
            case BROKER_KILL, LEADER_PAUSE, LEADER_STEPDOWN -> List.of("cluster");
            case PROXY_CUT, PROXY_BLACKHOLE, PROXY_SLOW -> List.of("proxies-" + subject);
            case DISK_FULL -> List.of("disk-" + subject);
            case DISK_READONLY -> List.of("daemon-" + subject, "disk-" + subject);
        };
    }
}
