package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.testkit.StoredMessage;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The JetStream path end to end against a real nats-server, for notify and audit alike. */
@Tag("broker")
class JetStreamDeliveryTest {

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void entryIsClearedOnlyAfterARealAck(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            h.server.pause();
            try {
                TargetSends.send(t, TargetHarness.event(kind, 1)).join();
                assertThat(t.queueLength()).as("queued while the server cannot ack").isEqualTo(1);
            } finally {
                h.server.resume();
            }
            h.awaitResolved(1);
            assertThat(t.queueLength()).isZero();
            List<StoredMessage> stored = h.readStream();
            assertThat(stored).hasSize(1);
            assertThat(stored.get(0).msgId()).isPresent();
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void everyEntryCarriesItsOwnMsgId(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            TargetHarness.sendAll(t, kind, 0, 200);
            h.awaitResolved(200);
            List<StoredMessage> stored = h.readStream();
            Set<String> ids = stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet());
            assertThat(stored).hasSize(200);
            assertThat(ids).hasSize(200);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void brokerKilledMidStreamDeliversEveryEventExactlyOnce(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            TargetHarness.sendAll(t, kind, 0, 2000);
            h.server.kill();
            TargetHarness.sendAll(t, kind, 2000, 1000);
            h.server.restart();
            // Backoff sleeps are injected: release any pending one instead of waiting it out.
            h.awaitDrained(t, java.time.Duration.ofSeconds(60));
            List<StoredMessage> stored = h.readStream();
            Set<String> ids = stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet());
            assertThat(ids).hasSize(3000);
            assertThat(stored).as("no duplicates in the stream").hasSize(3000);
        }
    }
}
