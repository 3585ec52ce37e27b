package dev.jetsink.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener.Events;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {

    private static NatsServer nats;
    private static Connection responder;

    private FaultProxy proxy;
    private Connection client;
    private final List<Events> events = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        nats = NatsServer.builder().jetStream(false).build().start();
        responder = Nats.connect(nats.url());
        Dispatcher d = responder.createDispatcher(m -> responder.publish(m.getReplyTo(), m.getData()));
        d.subscribe("echo");
        responder.flush(Duration.ofSeconds(5));
    }

    @AfterAll
    static void stopServer() throws Exception {
        responder.close();
        nats.close();
    }

    @BeforeEach
    void connectThroughProxy() throws Exception {
        proxy = FaultProxy.in(nats);
        client = Nats.connect(new Options.Builder().server(proxy.url())
                .reconnectWait(Duration.ofMillis(50)).maxReconnects(-1)
                .connectionListener((conn, event) -> events.add(event)).build());
    }

    @AfterEach
    void closeProxy() throws Exception {
        client.close();
        proxy.close();
    }

    @Test
    void passForwardsRequestsAndReplies() throws Exception {
        Message reply = client.request("echo", new byte[] {42}, Duration.ofSeconds(5));

        assertThat(reply).isNotNull();
        assertThat(reply.getData()).containsExactly(42);
        assertThat(proxy.openConnections()).isEqualTo(1);
    }

    @Test
    void delayHoldsEveryChunk() throws Exception {
        proxy.delay(Duration.ofMillis(150));

        long start = System.nanoTime();
        Message reply = client.request("echo", new byte[] {1}, Duration.ofSeconds(5));

        assertThat(reply).isNotNull();
        // Request out and reply back are each held once.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void blackholeStallsARequestUntilItsTimeout() throws Exception {
        proxy.blackhole();

        long start = System.nanoTime();
        Message reply = client.request("echo", new byte[] {1}, Duration.ofMillis(500));

        assertThat(reply).as("no reply may cross a black hole").isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        assertThat(proxy.openConnections()).as("the link stays up").isEqualTo(1);

        proxy.pass();
        assertThat(client.request("echo", new byte[] {2}, Duration.ofSeconds(5))).isNotNull();
    }

    @Test
    void resetDropsTheConnectionAndTheClientReconnects() {
        proxy.reset();

        await().atMost(Duration.ofSeconds(5)).until(() -> events.contains(Events.DISCONNECTED));
        await().atMost(Duration.ofSeconds(5)).until(() -> events.contains(Events.RECONNECTED));
        assertThat(proxy.acceptedConnections()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void refuseKeepsTheClientOutUntilPass() throws Exception {
        proxy.refuse();

        await().atMost(Duration.ofSeconds(5)).until(() -> events.contains(Events.DISCONNECTED));
        await().atMost(Duration.ofSeconds(5)).until(() -> proxy.acceptedConnections() >= 3);
        assertThat(client.getStatus()).isNotEqualTo(Connection.Status.CONNECTED);

        proxy.pass();
        await().atMost(Duration.ofSeconds(5)).until(() -> events.contains(Events.RECONNECTED));
        assertThat(client.request("echo", new byte[] {3}, Duration.ofSeconds(5))).isNotNull();
    }
}
