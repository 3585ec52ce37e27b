package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.testkit.StoredMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Against a real nats-server: a queue written by format version 1 (the committed fixture) is
 * delivered by today's code with the msg ids it was queued with, and a
 * library caller's own msg id reaches the stream as given and deduplicates a resend.
 */
class QueueUpgradeDeliveryTest {

    @Test
    void aVersion1QueueIsDeliveredWithItsOriginalMsgIds() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            Path fixture = Path.of(getClass().getResource("/queue-v1/notify-nats-_").toURI());
            Path dir = h.queueRoot.resolve("notify-nats-_");
            try (Stream<Path> files = Files.walk(fixture)) {
                for (Path p : files.toList()) {
                    Files.copy(p, dir.resolve(fixture.relativize(p).toString()));
                }
            }
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(TargetKind.NOTIFY)));
            h.awaitDrained(t, Duration.ofSeconds(60));

            List<StoredMessage> stored = h.readStream();
            Map<String, String> bodies = stored.stream().collect(Collectors.toMap(
                m -> m.msgId().orElseThrow(), m -> new String(m.data(), StandardCharsets.UTF_8)));
            assertThat(stored).hasSize(10);
            for (int i : new int[] {1, 3, 4, 5, 6, 8, 9, 10, 11}) {
                String id = new UUID(0x0123456789ab8defL, 0x8000000000000000L | i).toString();
                assertThat(bodies).containsKey(id);
                assertThat(bodies.get(id)).endsWith("\"Records\":[{\"i\":" + i + "}]}");
            }
            assertThat(bodies.values()).noneMatch(b -> b.endsWith("{\"i\":2}]}") || b.endsWith("{\"i\":7}]}"));
        }
    }

    @Test
    void aCallersMsgIdReachesTheStreamAsGivenAndAResendIsStoredOnce() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            TargetConfig config = TargetHarness.config(h.jetStreamEnv(TargetKind.AUDIT));
            NatsTarget t = h.start(config);
            OutboundEvent first = TargetHarness.event(TargetKind.AUDIT, 1).withMsgId("order-42:put");
            // the same id on different bytes: the caller's identity wins over the content
            OutboundEvent resend = TargetHarness.event(TargetKind.AUDIT, 2).withMsgId("order-42:put");
            OutboundEvent other = TargetHarness.event(TargetKind.AUDIT, 3).withMsgId("order-43:put");
            TargetSends.send(t, first).join();
            TargetSends.send(t, resend).join();
            TargetSends.send(t, other).join();
            h.awaitResolved(3);
            h.awaitDrained(t, Duration.ofSeconds(30));

            List<StoredMessage> stored = h.readStream();
            assertThat(stored).extracting(m -> m.msgId().orElseThrow()).containsExactly("order-42:put", "order-43:put");
            assertThat(new String(stored.get(0).data(), StandardCharsets.UTF_8)).contains("\"n\":1");
            assertThat(h.events.all(LifecycleEvent.EntryResolved.class)).filteredOn(LifecycleEvent.EntryResolved::duplicate)
                .extracting(LifecycleEvent.EntryResolved::msgId).containsExactly("order-42:put");
        }
    }

    @Test
    void anInvalidCallerMsgIdIsRefusedBeforeAnythingIsQueued() {
        OutboundEvent e = TargetHarness.event(TargetKind.NOTIFY, 1);
        assertThatThrownBy(() -> e.withMsgId("two words")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("msg id may hold printable ASCII characters without spaces only; character 4 is U+0020");
        assertThatThrownBy(() -> e.withMsgId("x".repeat(129))).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("msg id is 129 characters long; at most 128 are allowed");
    }
}
