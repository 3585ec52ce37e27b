package dev.jetsink.bench;

import dev.jetsink.testkit.NatsCluster;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;

/**
 * The broker a bench runs against: one nats-server (streams R1) or a local 3-node cluster (streams
 * R3, the guide's advice for production), chosen with {@code --replicas 1|3}. Its {@link #url} is
 * what a jetsink target's address and a jnats connection take (a comma-separated list for the
 * cluster).
 */
final class BenchBroker implements AutoCloseable {

    private final NatsServer single;
    private final NatsCluster cluster;

    private BenchBroker(NatsServer single, NatsCluster cluster) {
        this.single = single;
        this.cluster = cluster;
    }

    static BenchBroker start(int replicas) throws IOException {
        if (replicas == 1) {
            return new BenchBroker(NatsServer.builder().build().start(), null);
        }
        if (replicas == NatsCluster.SIZE) {
            return new BenchBroker(null, NatsCluster.start());
        }
        throw new IllegalArgumentException("--replicas must be 1 or " + NatsCluster.SIZE + ": " + replicas);
    }

    /** {@code --replicas} of a bench's options, 1 when absent. */
    static int replicas(java.util.Map<String, String> opts) {
        return Integer.parseInt(opts.getOrDefault("replicas", "1"));
    }

    int replicas() {
        return cluster == null ? 1 : NatsCluster.SIZE;
    }

    /** The results section of {@code name} for this broker: {@code name} for R1, {@code name_r3} for R3. */
    String section(String name) {
        return replicas() == 1 ? name : name + "_r" + replicas();
    }

    String url() {
        return cluster == null ? single.url() : cluster.urls();
    }

    Connection connect() throws IOException, InterruptedException {
        String[] servers = cluster == null ? new String[] {single.url()} : cluster.urlArray();
        return Nats.connect(new Options.Builder().servers(servers).maxReconnects(-1).build());
    }

    /** {@code spec} with this broker's replica count. */
    StreamSpec.Builder replicated(StreamSpec.Builder spec) {
        return spec.replicas(replicas());
    }

    @Override
    public void close() {
        if (cluster != null) {
            cluster.close();
        } else {
            single.close();
        }
    }
}
