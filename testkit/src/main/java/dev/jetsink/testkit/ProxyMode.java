package dev.jetsink.testkit;

import java.time.Duration;

/** What a {@link FaultProxy} does with traffic right now. */
record ProxyMode(Kind kind, Duration delay) {

    enum Kind { PASS, DELAY, BLACKHOLE, REFUSE }

    static final ProxyMode PASS = new ProxyMode(Kind.PASS, Duration.ZERO);
    static final ProxyMode BLACKHOLE = new ProxyMode(Kind.BLACKHOLE, Duration.ZERO);
    static final ProxyMode REFUSE = new ProxyMode(Kind.REFUSE, Duration.ZERO);

    static ProxyMode delay(Duration delay) {
        return new ProxyMode(Kind.DELAY, delay);
    }

    /** Whether bytes may flow; a black-holed or refusing proxy holds them. */
    boolean forwards() {
        return kind == Kind.PASS || kind == Kind.DELAY;
    }
}
