package dev.jetsink.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PublishOptions;
import io.nats.client.api.PublishAck;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NatsClusterTest {

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void clusterElectsANewStreamLeaderAfterTheLeaderIsKilledAndEachReplicaCanBeReadWhileItLeads() throws Exception {
        try (NatsCluster cluster = NatsCluster.start();
             Connection conn = Nats.connect(new Options.Builder().servers(cluster.urlArray())
                     .reconnectWait(Duration.ofMillis(100)).maxReconnects(-1).build())) {
            assertThat(cluster.urlList()).hasSize(3);
            assertThat(cluster.urls().split(",")).hasSize(3);
            Streams.create(conn, StreamSpec.of("R3", "r3.>").replicas(3).build());
            JetStream js = conn.jetStream();
            js.publish("r3.a", new byte[] {1});
            int leader = cluster.streamLeader("R3");

            cluster.kill(leader);

            PublishAck ack = publishWithRetry(js, Duration.ofSeconds(30));
            assertThat(ack.getSeqno()).isEqualTo(2);
            int newLeader = cluster.streamLeader("R3");
            assertThat(newLeader).as(cluster.node(leader).logTail(20)).isNotEqualTo(leader);

            cluster.restart(leader);
            cluster.awaitReady();
            cluster.awaitStreamCurrent("R3");
            assertThat(cluster.node(leader).isAlive()).isTrue();
            assertThat(Streams.readAll(conn, "R3")).extracting(StoredMessage::seq)
                    .containsExactly(1L, 2L);

            // each node read while it leads (one cluster start serves both checks)
            Map<Integer, List<StoredMessage>> views = cluster.readEachReplica("R3");
            assertThat(views).as("every node led once").containsOnlyKeys(0, 1, 2);
            for (List<StoredMessage> view : views.values()) {
                assertThat(view).extracting(StoredMessage::seq).containsExactly(1L, 2L);
            }
        }
    }

    /** During re-election publishes fail fast (503) or time out; the fixture must get past it. */
    private static PublishAck publishWithRetry(JetStream js, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        PublishOptions opts = PublishOptions.builder().messageId("after-kill")
                .streamTimeout(Duration.ofSeconds(2)).build();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                return js.publish("r3.a", new byte[] {2}, opts);
            } catch (Exception e) {
                last = e;
                Thread.sleep(100);
            }
        }
        throw last;
    }
}
