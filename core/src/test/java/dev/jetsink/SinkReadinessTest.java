package dev.jetsink;

import dev.jetsink.event.S3EventRecord;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Setup failures are loud: {@link Sink#awaitReady} names a stream that cannot work
 * and a server that cannot be reached, the API boundary refuses a null event, drain on a closed
 * sink says false; every other refusal of a send arrives in its future.
 */
class SinkReadinessTest extends ServerTestBase {
    private static final String STREAM = "SINK";
    private static final String SUBJECT = "app.events";

    private SinkBuilder<S3EventRecord> sink() {
        return Jetsink.notifySink().servers(server.url()).subject(SUBJECT).jetStream(STREAM).queueDir(queue);
    }

    private static S3EventRecord event() {
        return S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat.jpg").build();
    }

    @Test
    void awaitReadyReturnsOnceTheStreamMeetsTheRequirements() throws Exception {
        Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
        try (Sink<S3EventRecord> sink = sink().build()) {
            sink.awaitReady(AWAIT);
            assertThat(sink.send(event()).get(30, TimeUnit.SECONDS).delivered().get(30, TimeUnit.SECONDS).stream())
                .isEqualTo(STREAM);
        }
    }

    @Test
    void awaitReadyFailsWithTheNumbersWhenTheDuplicateWindowIsJnatsDefault() throws Exception {
        Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(120)).build());
        try (Sink<S3EventRecord> sink = sink().build()) {
            SinkNotReadyException e = catchThrowableOfType(SinkNotReadyException.class, () -> sink.awaitReady(AWAIT));
            assertThat(e).as("awaitReady must fail").isNotNull();
            assertThat(e.timedOut()).as("a stream that cannot work is not a timeout").isFalse();
            assertThat(e.getMessage()).contains("duplicate window 120s is below the required 274");
            SinkStatus status = sink.status();
            assertThat(status.health()).isEqualTo(SinkStatus.Health.ERROR);
            assertThat(status.healthReason()).contains("duplicate window 120s");
        }
    }

    @Test
    void statusAsksTheServerNothingWhileTheStreamFailsValidation() throws Exception {
        Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(120)).build());
        try (Sink<S3EventRecord> sink = sink().build()) {
            assertThat(catchThrowableOfType(SinkNotReadyException.class, () -> sink.awaitReady(AWAIT))).isNotNull();
            io.nats.client.Subscription requests = admin.subscribe("$JS.API.STREAM.INFO.>");
            admin.flush(Duration.ofSeconds(5));
            for (int i = 0; i < 20; i++) {
                SinkStatus status = sink.status();
                assertThat(status.health()).isEqualTo(SinkStatus.Health.ERROR);
                assertThat(status.healthReason()).contains("duplicate window 120s");
            }
            admin.flush(Duration.ofSeconds(5));
            // a live validation per call would be 20 requests; the target's own init retry may ask once
            assertThat(requests.getPendingMessageCount()).as("stream info requests during 20 status calls")
                .isLessThanOrEqualTo(1);
        }
    }

    @Test
    void awaitReadyFailsAtOnceNamingTheServerOnceWhenNothingListens() throws Exception {
        String nowhere = "nats://127.0.0.1:" + freePort();
        Duration timeout = Duration.ofSeconds(60);
        try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(nowhere).subject(SUBJECT).jetStream(STREAM)
                .queueDir(queue).build()) {
            long began = System.nanoTime();
            SinkNotReadyException e = catchThrowableOfType(SinkNotReadyException.class, () -> sink.awaitReady(timeout));
            Duration waited = Duration.ofNanos(System.nanoTime() - began);
            assertThat(e).as("awaitReady must fail").isNotNull();
            assertThat(e.timedOut()).as("a refused connection is an answer, not a timeout").isFalse();
            assertThat(waited).as("not waiting out the timeout").isLessThan(timeout.dividedBy(2));
            assertThat(e.getMessage()).contains("cannot connect to NATS [" + nowhere + "]").containsIgnoringCase("refused");
            assertThat(e.getMessage().split(java.util.regex.Pattern.quote(nowhere.substring("nats://".length())), -1))
                .as("the address named once").hasSize(2);
        }
    }

    @Test
    void awaitReadyWaitsOutItsTimeoutWhenTheServerDoesNotAnswer() throws Exception {
        // a listening socket that never speaks NATS: each attempt times out, which waiting may mend
        try (ServerSocket silent = new ServerSocket(0)) {
            String address = "nats://127.0.0.1:" + silent.getLocalPort();
            try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(address).subject(SUBJECT).jetStream(STREAM)
                    .queueDir(queue).build()) {
                SinkNotReadyException e = catchThrowableOfType(SinkNotReadyException.class,
                    () -> sink.awaitReady(Duration.ofSeconds(3)));
                assertThat(e).as("awaitReady must fail").isNotNull();
                assertThat(e.timedOut()).isTrue();
            }
        }
    }

    @Test
    void aNullEventIsRefusedAtTheDoor() throws Exception {
        try (Sink<S3EventRecord> sink = sink().build()) {
            assertThatThrownBy(() -> sink.send(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("event must not be null");
            assertThatThrownBy(() -> sink.send(event(), (String) null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("msgId");
            assertThat(sink.queueLength()).isZero();
        }
    }

    @Test
    void everyRefusalOfSendArrivesInTheFutureAndQueuesNothing() throws Exception {
        try (Sink<S3EventRecord> sink = sink().build()) {
            S3EventRecord longKey = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "k".repeat(70_000)).build();
            CompletableFuture<Receipt> oversized = sink.send(longKey);
            CompletableFuture<Receipt> badId = sink.send(event(), "has a space");
            for (CompletableFuture<Receipt> refused : List.of(oversized, badId)) {
                assertThat(refused).failsWithin(AWAIT).withThrowableOfType(ExecutionException.class)
                    .havingCause().isInstanceOf(IllegalArgumentException.class);
            }
            assertThat(oversized).failsWithin(AWAIT).withThrowableOfType(ExecutionException.class)
                .withMessageContaining("longer than 65535 bytes");
            assertThat(sink.queueLength()).isZero();
        }
    }

    @Test
    void drainOnAClosedSinkReturnsFalse() throws Exception {
        Sink<S3EventRecord> sink = sink().build();
        sink.close();
        assertThat(sink.drain(Duration.ofSeconds(1))).isFalse();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
