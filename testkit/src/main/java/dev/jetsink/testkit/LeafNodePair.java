package dev.jetsink.testkit;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two real nats-server processes as a leaf-node deployment: a hub with JetStream in a named domain
 * listening for leaf nodes, and a leaf without JetStream whose one remote is the hub. A client of
 * the leaf reaches the hub's streams only through the domain ({@code $JS.<domain>.API}), which is
 * what a target with {@code jetstream_domain} must do.
 *
 * <p>{@link #start(String, String)} returns once a JetStream request sent to the leaf in the
 * domain gets the hub's answer. Create streams through the leaf in the domain
 * ({@link #createStream(StreamSpec)}): the hub sends a stream's interest to the leaf before it
 * answers the request over the same link, so publishes to the leaf reach the stream as soon as the
 * creation returns.
 *
 * <pre>{@code
 * try (LeafNodePair pair = LeafNodePair.start("hub", "")) {
 *     Connection viaLeaf = Nats.connect(pair.leaf().url());
 * }
 * }</pre>
 */
public final class LeafNodePair implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern LEAF_LISTEN = Pattern.compile("Listening for leafnode connections on [^ ]*:(\\d+)");

    private final NatsServer hub;
    private final NatsServer leaf;
    private final String domain;

    private LeafNodePair(NatsServer hub, NatsServer leaf, String domain) {
        this.hub = hub;
        this.leaf = leaf;
        this.domain = domain;
    }

    /**
     * Starts the hub, then the leaf, and waits until JetStream answers through the leaf.
     *
     * @param domain the hub's JetStream domain, one token
     * @param hubConfig further config text for the hub (an {@code authorization} block), may be empty
     * @throws IllegalStateException if either server does not come up or the leaf never links
     */
    public static LeafNodePair start(String domain, String hubConfig) {
        NatsServer hub = NatsServer.builder()
                .config("jetstream { domain: " + domain + " }\n"
                        + "leafnodes { listen: \"127.0.0.1:-1\" }\n" + hubConfig)
                .build().start();
        NatsServer leaf = null;
        try {
            int leafPort = leafListenPort(hub);
            leaf = NatsServer.builder().jetStream(false)
                    .config("leafnodes { remotes = [ { url: \"nats-leaf://127.0.0.1:" + leafPort + "\" } ] }\n")
                    .build().start();
            LeafNodePair pair = new LeafNodePair(hub, leaf, domain);
            pair.awaitJetStreamThroughLeaf();
            return pair;
        } catch (RuntimeException e) {
            if (leaf != null) {
                leaf.close();
            }
            hub.close();
            throw e;
        }
    }

    /** The server with JetStream, in {@link #domain()}. */
    public NatsServer hub() {
        return hub;
    }

    /** The server without JetStream, linked to the hub as a leaf node. */
    public NatsServer leaf() {
        return leaf;
    }

    /** The hub's JetStream domain. */
    public String domain() {
        return domain;
    }

    /**
     * Creates a stream in the hub's domain through the leaf, as an operator at the edge would; once
     * it returns, publishes to the leaf reach the stream (see the class comment).
     *
     * @param spec the stream to create
     * @throws IllegalStateException if the hub refuses it or does not answer
     */
    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public void createStream(StreamSpec spec) {
        try (Connection viaLeaf = Nats.connect(leaf.url())) {
            viaLeaf.jetStreamManagement(JetStreamOptions.builder().domain(domain).build())
                    .addStream(spec.toConfiguration());
        } catch (IOException | JetStreamApiException e) {
            throw new IllegalStateException("cannot create stream " + spec.name() + " in domain " + domain
                    + " through the leaf: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The leaf-node port the hub printed in its log; {@code -1} in the config lets it pick one. */
    private static int leafListenPort(NatsServer hub) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Integer> port = readLeafPort(hub);
            if (port.isPresent()) {
                return port.get();
            }
            pause();
        }
        throw new IllegalStateException("hub printed no leaf-node port\n" + hub.logTail(30));
    }

    private static Optional<Integer> readLeafPort(NatsServer hub) {
        try {
            Matcher m = LEAF_LISTEN.matcher(Files.readString(hub.logFile(), StandardCharsets.UTF_8));
            return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    private void awaitJetStreamThroughLeaf() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        JetStreamOptions inDomain = JetStreamOptions.builder().domain(domain)
                .requestTimeout(Duration.ofSeconds(1)).build();
        try (Connection c = Nats.connect(new Options.Builder().server(leaf.url()).build())) {
            Exception last = null;
            while (System.nanoTime() < deadline) {
                try {
                    c.jetStreamManagement(inDomain).getAccountStatistics();
                    return;
                } catch (Exception e) {
                    last = e;
                    pause();
                }
            }
            throw new IllegalStateException("JetStream of domain " + domain + " did not answer through the leaf: "
                    + last + "\n" + hub.logTail(20) + "\n" + leaf.logTail(20));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Stops the leaf, then the hub, and removes their temporary files. */
    @Override
    public void close() {
        try {
            leaf.close();
        } finally {
            hub.close();
        }
    }
}
