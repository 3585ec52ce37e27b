package dev.jetsink.internal.nats;

import dev.jetsink.testkit.NatsServer;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The threads jnats runs for a connection made by {@link ConnectionFactory}, against a real server. */
class ConnectionThreadsTest {

    @Test
    void aConnectionRunsOnDaemonThreadsThatAreGoneSoonAfterClose() throws Exception {
        Queue<ConnectionListener.Events> heard = new ConcurrentLinkedQueue<>();
        try (NatsServer nats = NatsServer.startDefault()) {
            Connection connection = ConnectionFactory.builder(ConnectionSettings.forAddress(nats.url()))
                .connectionName("jetsink threads-test").connectionListener(listener(heard)).build()
                .connect(Duration.ofSeconds(10));
            connection.flush(Duration.ofSeconds(5));
            assertThat(threads("jetsink-nats-threads-test-")).as("the connection's threads")
                .isNotEmpty().allMatch(Thread::isDaemon);

            ConnectionFactory.close(connection);

            assertThat(heard).as("CLOSED is handled before close returns").contains(ConnectionListener.Events.CLOSED);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(threads("jetsink-nats-threads-test-")).as("threads left after close").isEmpty());
        }
    }

    private static List<Thread> threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).toList();
    }

    private static ConnectionListener listener(Queue<ConnectionListener.Events> heard) {
        return new ConnectionListener() {
            @Override
            @SuppressWarnings("deprecation") // ConnectionListener still declares this deprecated form abstract, so it must be implemented
            public void connectionEvent(Connection conn, Events type) {
                // jnats calls the four-argument form
            }

            @Override
            public void connectionEvent(Connection conn, Events type, Long time, String uriDetails) {
                heard.add(type);
            }
        };
    }
}
