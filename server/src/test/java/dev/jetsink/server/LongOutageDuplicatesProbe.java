package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.BalancedPair;
import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where active-active's exactly-once ends, measured: one of two daemons behind nginx is frozen
 * (SIGSTOP) for longer than the stream's duplicate window while senders keep posting. nginx gives up
 * on each request the frozen daemon holds after its 2 s read timeout and sends it to the other
 * daemon, which stores it; when the frozen daemon resumes, it still reads, queues and delivers
 * those requests — past the window, so the stream stores them a second time. Nothing is lost; the
 * duplicates are counted and printed (OPERATIONS.md section 16 reports a run).
 *
 * <p>The smallest window a target accepts is 174 s (the rig's ack timeout, 10 s, the smallest
 * allowed), so this takes about four minutes and is not in {@code bin/test}: it runs when named,
 * {@code mvn -B verify -pl testkit,core,server -am -Dit.test=LongOutageDuplicatesProbe -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class LongOutageDuplicatesProbe {

    private static final int EVENTS = 1_500;
    private static final Duration WINDOW = Duration.ofSeconds(175);

    @Test
    void aDaemonFrozenLongerThanTheDuplicateWindowStoresTheBalancersRetriesAgain() throws Exception {
        try (BalancedPair pair = BalancedPair.start(WINDOW, Map.of());
             EventLoad load = new EventLoad(pair::balancer, pair.rig.http(), 0, EVENTS, 300).start(8)) {
            load.awaitAcknowledged(EVENTS / 3, Duration.ofSeconds(120));
            pair.rig.signalDaemon("STOP");
            long frozenAt = System.nanoTime();
            load.awaitAll(Duration.ofSeconds(180));
            Thread.sleep(Math.max(0, WINDOW.plusSeconds(10).toMillis() - (System.nanoTime() - frozenAt) / 1_000_000));
            pair.rig.signalDaemon("CONT");

            DeliveryAudit.Tally t = pair.audit("long-outage frozen_s=" + (System.nanoTime() - frozenAt) / 1_000_000_000
                + " window_s=" + WINDOW.toSeconds(), load);
            System.out.println("long-outage duplicates: " + t.duplicated() + " of " + EVENTS + " events stored twice"
                + " after a daemon frozen past the " + WINDOW.toSeconds() + " s window; " + t.line());
            assertThat(t.lost()).as(t.line()).isZero();
            assertThat(t.inStreamOnce() + t.duplicated()).as(t.line()).isEqualTo(EVENTS);
            assertThat(t.duplicated()).as("the requests the frozen daemon held, stored again past the window; " + t.line())
                .isPositive();
        }
    }
}
