package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retry cycles (DESIGN.md "Delivery") and transient outcomes that the operator must fix
 * (DESIGN.md "Classification"): entries stay
 * queued, warn once per cycle, and never count as failed. Real nats-server, notify and audit alike.
 */
class RetryCycleTest {

    private static final String EXHAUSTED = "retry budget exhausted, entry stays queued and retries";

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void exhaustionWarnsOncePerCycleAndNeverCountsAsFailed(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = new CapturedLog()) {
            // No stream yet: every attempt is a validation that fails before publishing.
            TargetConfig config = TargetHarness.config(h.jetStreamEnv(kind));
            NatsTarget t = h.start(config);
            TargetSends.send(t, TargetHarness.event(kind, 0)).join();

            for (int cycle = 1; cycle <= 2; cycle++) {
                for (int attempt = 1; attempt <= 5; attempt++) {
                    int lifetime = (cycle - 1) * 5 + attempt;
                    h.events.awaitCount(LifecycleEvent.AttemptFailed.class, e -> true, lifetime, TargetHarness.AWAIT);
                    if (attempt < 5) {
                        Duration backoff = Duration.ofSeconds(4L << (attempt - 1));
                        h.sleeper.awaitPending(backoff, TargetHarness.AWAIT);
                        assertThat(h.events.all(LifecycleEvent.CycleExhausted.class))
                            .as("no exhaustion inside cycle %d", cycle).hasSize(cycle - 1);
                        h.sleeper.advance(backoff);
                    }
                }
                List<LifecycleEvent.CycleExhausted> exhausted = h.events.awaitCount(
                    LifecycleEvent.CycleExhausted.class, e -> true, cycle, TargetHarness.AWAIT);
                assertThat(exhausted.get(cycle - 1).cycle()).isEqualTo(cycle);
                assertThat(exhausted.get(cycle - 1).lifetimeAttempts()).isEqualTo(cycle * 5L);
                assertThat(t.counters().failedCount()).as("exhaustion is not a failure").isZero();
                assertThat(t.queueLength()).as("the entry stays queued").isEqualTo(1);
            }
            String msgId = h.events.all(LifecycleEvent.CycleExhausted.class).get(0).msgId();
            List<String> warnings = logs.lines(Level.WARN, EXHAUSTED);
            assertThat(warnings).as("one warning per cycle").hasSize(2);
            assertThat(warnings.get(0)).contains("target=\"" + config.displayId() + "\"", "msg_id=" + msgId,
                "attempts=5");
            assertThat(warnings.get(1)).contains("msg_id=" + msgId, "attempts=10");

            h.createDefaultStream();
            h.awaitDrained(t, TargetHarness.AWAIT);
            LifecycleEvent.EntryResolved resolved = h.events.await(LifecycleEvent.EntryResolved.class,
                e -> true, TargetHarness.AWAIT);
            assertThat(resolved.msgId()).isEqualTo(msgId);
            assertThat(h.events.all(LifecycleEvent.AttemptFailed.class)).hasSizeGreaterThanOrEqualTo(10);
            assertThat(h.events.all(LifecycleEvent.CycleExhausted.class)).hasSize(2);
            assertThat(logs.lines(Level.WARN, EXHAUSTED)).hasSize(2);
            assertThat(t.counters().failedCount()).as("retries and exhaustions never advance failed_messages").isZero();
            assertThat(h.readStream()).hasSize(1);
        }
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void publishPermissionDeniedKeepsEntriesQueuedAndNothingInTheFailedStore(TargetKind kind) throws Exception {
        String auth = """
            authorization {
              users = [
                {user: admin, password: adminpw}
                {user: a, password: b, permissions: {publish: {deny: ["rustfs.>"]}}}
              ]
            }
            """;
        try (TargetHarness h = new TargetHarness(NatsServer.builder().config(auth).build().start());
             Connection admin = Nats.connect(new Options.Builder().server(h.server.url())
                 .userInfo("admin", "adminpw").build())) {
            Streams.create(admin, StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT)
                .duplicateWindow(Duration.ofSeconds(274)).build());
            Map<String, String> env = h.jetStreamEnv(kind);
            env.put(kind.envPrefix() + "USERNAME", "a");
            env.put(kind.envPrefix() + "PASSWORD", "b");
            TargetConfig config = TargetHarness.config(env);
            NatsTarget t = h.start(config);
            assertThat(t.verdictPass()).as("the stream lookup itself is allowed").isTrue();

            TargetHarness.sendAll(t, kind, 0, 3);
            // The server drops a denied publish without a reply: the attempt runs into its deadline.
            LifecycleEvent.AttemptFailed failed = h.events.await(LifecycleEvent.AttemptFailed.class, e -> true,
                Duration.ofSeconds(30));
            assertThat(failed.outcome().isTransient()).isTrue();
            h.events.await(LifecycleEvent.ProbeModeEntered.class, e -> true, TargetHarness.AWAIT);

            assertThat(t.queueLength()).as("entries stay queued").isEqualTo(3);
            assertThat(h.events.all(LifecycleEvent.EntryResolved.class)).isEmpty();
            assertThat(h.events.all(LifecycleEvent.MovedToFailedStore.class)).isEmpty();
            assertThat(t.counters().failedCount()).isZero();
            assertThat(config.queuePath().orElseThrow().resolve(FailedEventStore.DIRECTORY)).doesNotExist();
            assertThat(Streams.state(admin, TargetHarness.STREAM).getMsgCount()).isZero();
        }
    }
}
