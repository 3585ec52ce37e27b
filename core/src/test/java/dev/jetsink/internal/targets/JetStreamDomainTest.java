package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.lifecycle.LifecycleEvent.EntryResolved;
import dev.jetsink.lifecycle.LifecycleEvent.StreamValidationFailed;
import dev.jetsink.testkit.LeafNodePair;
import dev.jetsink.testkit.StreamSpec;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target whose stream lives in another JetStream domain (DESIGN.md "NATS connection"): it
 * connects to a leaf node that has no JetStream and reaches the hub's stream through
 * {@code jetstream_domain} or {@code jetstream_api_prefix}; a wrong domain fails stream validation
 * at once, naming the domain, and loses nothing.
 */
class JetStreamDomainTest {

    private static final int EVENTS = 20;
    private static final String DOMAIN = "hub";

    private static StreamSpec stream() {
        return StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build();
    }

    private static void deliversEachEventOnceThroughTheLeaf(String key, String value) throws Exception {
        try (LeafNodePair pair = LeafNodePair.start(DOMAIN, "");
             TargetHarness h = new TargetHarness(pair.hub())) {
            pair.createStream(stream());
            Map<String, String> env = h.jetStreamEnv(TargetKind.NOTIFY);
            env.put(TargetKind.NOTIFY.envPrefix() + "ADDRESS", pair.leaf().url());
            env.put(TargetKind.NOTIFY.envPrefix() + key, value);
            NatsTarget t = h.start(TargetHarness.config(env));

            TargetHarness.sendAll(t, TargetKind.NOTIFY, 0, EVENTS);
            h.awaitDrained(t, TargetHarness.AWAIT);

            assertThat(t.connectedServer()).contains(pair.leaf().url());
            assertThat(t.verdictPass()).isTrue();
            ConnectionBehaviourTest.assertStreamHoldsEachResolvedEntryOnce(h, EVENTS);
            ConnectionBehaviourTest.assertNothingFailed(h, t);
        }
    }

    @Test
    void domainOverALeafNodeDeliversEachEventOnce() throws Exception {
        deliversEachEventOnceThroughTheLeaf("JETSTREAM_DOMAIN", DOMAIN);
    }

    @Test
    void apiPrefixOverALeafNodeDeliversEachEventOnce() throws Exception {
        deliversEachEventOnceThroughTheLeaf("JETSTREAM_API_PREFIX", "$JS." + DOMAIN + ".API");
    }

    @Test
    void wrongDomainFailsStreamValidationAtOnceAndKeepsEventsQueued() throws Exception {
        try (LeafNodePair pair = LeafNodePair.start(DOMAIN, "");
             TargetHarness h = new TargetHarness(pair.hub())) {
            pair.createStream(stream());
            Map<String, String> env = h.jetStreamEnv(TargetKind.AUDIT);
            env.put(TargetKind.AUDIT.envPrefix() + "ADDRESS", pair.leaf().url());
            env.put(TargetKind.AUDIT.envPrefix() + "JETSTREAM_DOMAIN", "elsewhere");
            NatsTarget t = h.start(TargetHarness.config(env));

            long sent = System.nanoTime();
            TargetHarness.sendAll(t, TargetKind.AUDIT, 0, EVENTS);
            StreamValidationFailed failed = h.events.await(StreamValidationFailed.class, e -> true, TargetHarness.AWAIT);
            Duration took = Duration.ofNanos(System.nanoTime() - sent);

            assertThat(took).as("no responders is an answer, not a wait for the ack timeout")
                .isLessThan(Duration.ofSeconds(10));
            assertThat(failed.message()).contains("stream " + TargetHarness.STREAM + " could not be looked up")
                .contains("no JetStream answered through JetStream domain elsewhere");
            assertThat(t.health().reason()).contains("JetStream domain elsewhere");
            assertThat(t.verdictPass()).isFalse();
            assertThat(h.events.all(EntryResolved.class)).isEmpty();
            assertThat(t.queueLength()).as("nothing lost").isEqualTo(EVENTS);
            assertThat(h.readStream()).isEmpty();
            ConnectionBehaviourTest.assertNothingFailed(h, t);
        }
    }
}
