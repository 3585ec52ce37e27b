package dev.jetsink;

import dev.jetsink.event.S3EventRecord;
import dev.jetsink.testkit.LeafNodePair;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.SecurityFixtures;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The builder's NATS settings for real deployments, against real servers: an NKey seed file for a
 * server with an nkey user, and a JetStream domain or API prefix for a stream that lives in a hub
 * reached through a leaf node. Each delivers every event exactly once; a seed the server does not
 * know is refused by {@link Sink#awaitReady} at once, saying so and never showing the seed, and the
 * event sent meanwhile stays queued.
 */
@SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
class SinkAuthenticationTest {

    private static final String STREAM = "SINK";
    private static final String SUBJECT = "app.events";
    private static final String DOMAIN = "hub";
    private static final Duration AWAIT = Duration.ofSeconds(30);
    private static final int EVENTS = 20;

    @TempDir
    Path dir;

    private static StreamSpec stream() {
        return StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build();
    }

    private static S3EventRecord event(int i) {
        return S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "obj-" + i + ".jpg").size(i).build();
    }

    private SinkBuilder<S3EventRecord> sink(String url) {
        return Jetsink.notifySink().servers(url).subject(SUBJECT).jetStream(STREAM).queueDir(dir.resolve("queue"));
    }

    @Test
    void anNkeySeedFileDeliversEachEventOnce() throws Exception {
        SecurityFixtures fixtures = SecurityFixtures.materialize(dir.resolve("fixtures"));
        try (NatsServer server = NatsServer.builder().config(fixtures.nkey()).build().start();
             Connection admin = Nats.connect(new Options.Builder().server(server.url())
                 .authHandler(Nats.staticCredentials(null, fixtures.nkeySeed().toCharArray())).build())) {
            Streams.create(admin, stream());

            deliverEachOnce(sink(server.url()).nkeySeedFile(fixtures.nkeySeedFile()), admin);
        }
    }

    @Test
    void aStrangersSeedIsRefusedAtOnceNamingTheCredentials() throws Exception {
        SecurityFixtures fixtures = SecurityFixtures.materialize(dir.resolve("fixtures"));
        Duration timeout = Duration.ofSeconds(60);
        try (NatsServer server = NatsServer.builder().config(fixtures.nkey()).build().start();
             Sink<S3EventRecord> sink = sink(server.url()).nkeySeedFile(fixtures.strangerNkeySeedFile()).build()) {
            Receipt queued = sink.send(event(0)).get(30, TimeUnit.SECONDS);
            long began = System.nanoTime();
            SinkNotReadyException e = catchThrowableOfType(SinkNotReadyException.class, () -> sink.awaitReady(timeout));
            Duration waited = Duration.ofNanos(System.nanoTime() - began);

            assertThat(e).as("awaitReady must fail").isNotNull();
            assertThat(e.timedOut()).as("refused credentials are an answer, not a timeout").isFalse();
            assertThat(waited).as("not waiting out the timeout").isLessThan(timeout.dividedBy(2));
            assertThat(e.getMessage()).contains("cannot connect").contains("the server refused the credentials");
            for (Path seed : List.of(fixtures.nkeySeedFile(), fixtures.strangerNkeySeedFile())) {
                assertThat(e.getMessage()).doesNotContain(Files.readString(seed).strip());
            }
            assertThat(sink.status().health()).isNotEqualTo(SinkStatus.Health.ONLINE);
            assertThat(queued.delivered()).as("kept, not delivered and not failed").isNotDone();
            assertThat(sink.queueLength()).as("nothing lost").isEqualTo(1);
        }
    }

    @Test
    void aJetStreamDomainReachesTheHubsStreamThroughALeafNodeAndDeliversEachEventOnce() throws Exception {
        deliverEachOnceThroughALeafNode(b -> b.jetStreamDomain(DOMAIN));
    }

    @Test
    void aJetStreamApiPrefixReachesTheHubsStreamThroughALeafNodeAndDeliversEachEventOnce() throws Exception {
        deliverEachOnceThroughALeafNode(b -> b.jetStreamApiPrefix("$JS." + DOMAIN + ".API"));
    }

    /** The sink connects to the leaf, which has no JetStream of its own; the stream is read on the hub. */
    private void deliverEachOnceThroughALeafNode(UnaryOperator<SinkBuilder<S3EventRecord>> addressing)
            throws Exception {
        try (LeafNodePair pair = LeafNodePair.start(DOMAIN, "");
             Connection hubAdmin = Nats.connect(pair.hub().url())) {
            pair.createStream(stream());

            Optional<String> connected = deliverEachOnce(addressing.apply(sink(pair.leaf().url())), hubAdmin);
            assertThat(connected).as("connected to the leaf, not the hub").contains(pair.leaf().url());
        }
    }

    /**
     * Builds the sink, waits until it is ready, sends {@value #EVENTS} events and checks that the
     * stream holds each of them once, under the msg id of its receipt. Returns the server the sink
     * was connected to.
     */
    private static Optional<String> deliverEachOnce(SinkBuilder<S3EventRecord> builder, Connection admin)
            throws Exception {
        try (Sink<S3EventRecord> sink = builder.build()) {
            sink.awaitReady(AWAIT);
            List<Receipt> receipts = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                receipts.add(sink.send(event(i)).get(30, TimeUnit.SECONDS));
            }
            for (Receipt r : receipts) {
                Delivery d = r.delivered().get(30, TimeUnit.SECONDS);
                assertThat(d.stream()).isEqualTo(STREAM);
                assertThat(d.duplicate()).as("delivered once, not as a duplicate").isFalse();
            }
            assertThat(sink.drain(AWAIT)).isTrue();

            List<StoredMessage> stored = Streams.readAll(admin, STREAM);
            Set<String> sent = receipts.stream().map(Receipt::msgId).collect(Collectors.toSet());
            assertThat(sent).hasSize(EVENTS);
            assertThat(stored).as("each event stored once").hasSize(EVENTS);
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet())).isEqualTo(sent);
            return sink.status().connectedServer();
        }
    }
}
