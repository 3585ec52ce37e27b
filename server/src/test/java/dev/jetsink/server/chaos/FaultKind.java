package dev.jetsink.server.chaos;

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
    PROXY_SLOW("proxy-slow", 2);

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

    /** The resource the fault occupies, so two faults never fight over one thing. */
    String resource(int subject) {
        return switch (this) {
            case DAEMON_KILL, DAEMON_TERM -> "daemon-" + subject;
            case BROKER_KILL, LEADER_PAUSE, LEADER_STEPDOWN -> "cluster";
            case PROXY_CUT, PROXY_BLACKHOLE, PROXY_SLOW -> "proxies-" + subject;
        };
    }
}
