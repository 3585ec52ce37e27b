package dev.jetsink.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nats.client.Connection;
import io.nats.client.IterableConsumer;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamStatusCheckedException;
import io.nats.client.Message;
import io.nats.client.api.OrderedConsumerConfiguration;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import io.nats.client.api.StreamState;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Stream set-up and read-back for tests, on a jnats {@link Connection}. Failures surface as
 * {@link IllegalStateException} carrying the server's error, so tests need no checked plumbing.
 */
public final class Streams {

    /** How long {@link #readAll} waits for a message before it gives up. */
    public static final Duration READ_IDLE_TIMEOUT = Duration.ofSeconds(10);
    /** How long {@link #state} and {@link #readAll} wait for a stream that does not answer yet. */
    public static final Duration SETTLE = Duration.ofSeconds(30);
    /** jnats' text for a request nobody answered in time. */
    private static final String NO_ANSWER = "Timeout or no response";
    /** JetStream's error code for a sequence that holds no message. */
    private static final int NO_MESSAGE_FOUND = 10037;
    private static final ObjectMapper JSON = new ObjectMapper();

    private Streams() {
    }

    /** Creates the stream; fails if one with a different configuration exists. */
    public static StreamInfo create(Connection conn, StreamSpec spec) {
        return call("create stream " + spec.name(),
                () -> jsm(conn).addStream(spec.toConfiguration()));
    }

    /** Replaces the stream's configuration with the spec's. */
    public static StreamInfo update(Connection conn, StreamSpec spec) {
        return call("update stream " + spec.name(),
                () -> jsm(conn).updateStream(spec.toConfiguration()));
    }

    /** Changes the stream's current configuration with {@code change}, keeping the rest. */
    public static StreamInfo update(Connection conn, String name,
                                    UnaryOperator<StreamConfiguration.Builder> change) {
        return call("update stream " + name, () -> {
            JetStreamManagement jsm = jsm(conn);
            StreamConfiguration current = jsm.getStreamInfo(name).getConfiguration();
            return jsm.updateStream(change.apply(StreamConfiguration.builder(current)).build());
        });
    }

    /** Seals the stream: it then refuses every publish, delete and purge (error 10109). */
    public static StreamInfo seal(Connection conn, String name) {
        return update(conn, name, StreamConfiguration.Builder::seal);
    }

    /** Deletes the stream. */
    public static void delete(Connection conn, String name) {
        call("delete stream " + name, () -> jsm(conn).deleteStream(name));
    }

    /** The stream's state now (message count, first and last sequence...). */
    public static StreamState state(Connection conn, String name) {
        return patiently("stream info " + name, () -> jsm(conn).getStreamInfo(name).getStreamState());
    }

    /**
     * Reads every message the stream holds now, in sequence order, skipping deleted ones. Uses an
     * ordered consumer (20 000 small messages take about 0.3 s here), not one request per message.
     * Messages published while it reads may or may not be included.
     *
     * @throws IllegalStateException if the stream stops delivering for {@link #READ_IDLE_TIMEOUT}
     *     before everything present at the start was read
     */
    public static List<StoredMessage> readAll(Connection conn, String stream) {
        return patiently("read stream " + stream, () -> readAllOnce(conn, stream));
    }

    @SuppressWarnings("try") // jnats' IterableConsumer.close() declares InterruptedException; try-with-resources is still how it is closed
    private static List<StoredMessage> readAllOnce(Connection conn, String stream) throws IOException {
        StreamState state = state(conn, stream);
        long expected = state.getMsgCount();
        long lastSeq = state.getLastSequence();
        List<StoredMessage> out = new ArrayList<>((int) Math.min(expected, 1_000_000));
        if (expected == 0) {
            return out;
        }
        try (IterableConsumer consumer = conn.getStreamContext(stream)
                .createOrderedConsumer(new OrderedConsumerConfiguration()).iterate()) {
            while (out.size() < expected) {
                Message msg = consumer.nextMessage(READ_IDLE_TIMEOUT);
                if (msg == null) {
                    throw new IllegalStateException("read " + out.size() + " of " + expected
                            + " messages of stream " + stream + ", then nothing for "
                            + READ_IDLE_TIMEOUT);
                }
                long seq = msg.metaData().streamSequence();
                out.add(new StoredMessage(seq, msg.getSubject(), headers(msg), msg.getData()));
                if (seq >= lastSeq) {
                    break;
                }
            }
            return out;
        } catch (IOException e) {
            throw e;
        } catch (JetStreamApiException | JetStreamStatusCheckedException e) {
            throw new IllegalStateException("cannot read stream " + stream + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading stream " + stream, e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // IterableConsumer.close() declares Exception.
            throw new IllegalStateException("cannot read stream " + stream + ": " + e, e);
        }
    }

    /**
     * Reads every sequence between the stream's first and last with {@code $JS.API.STREAM.MSG.GET},
     * which the stream's leader answers from its own store, 256 requests in flight. An ordered
     * consumer ({@link #readAll}) may be served by a follower: on a broker whose replicas have
     * diverged (nats-server 2.9.10 after a paused leader) this is the read that shows what the
     * leader holds. Sequences with no message (deleted, or a gap) are skipped.
     *
     * @throws IllegalStateException if a request fails or goes unanswered for 10 s
     */
    public static List<StoredMessage> readFromLeader(Connection conn, String stream) {
        StreamState state = state(conn, stream);
        if (state.getMsgCount() == 0) {
            return List.of();
        }
        int inFlight = 256;
        Semaphore window = new Semaphore(inFlight);
        Map<Long, StoredMessage> bySeq = new ConcurrentHashMap<>();
        AtomicReference<String> failure = new AtomicReference<>();
        try {
            for (long seq = state.getFirstSequence(); seq <= state.getLastSequence() && failure.get() == null; seq++) {
                window.acquire();
                long at = seq;
                byte[] ask = ("{\"seq\":" + seq + "}").getBytes(StandardCharsets.UTF_8);
                conn.request("$JS.API.STREAM.MSG.GET." + stream, ask).orTimeout(10, TimeUnit.SECONDS)
                    .whenComplete((reply, e) -> {
                        try {
                            if (e != null) {
                                failure.compareAndSet(null, "seq " + at + ": " + e);
                            } else {
                                storedMessage(reply.getData(), at, failure).ifPresent(m -> bySeq.put(at, m));
                            }
                        } finally {
                            window.release();
                        }
                    });
            }
            window.acquire(inFlight);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading stream " + stream, e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("cannot read stream " + stream + " from its leader: " + failure.get());
        }
        return new ArrayList<>(new TreeMap<>(bySeq).values());
    }

    /** The message of a MSG.GET answer; empty for "no message found", a failure noted otherwise. */
    private static Optional<StoredMessage> storedMessage(byte[] reply, long seq, AtomicReference<String> failure) {
        JsonNode answer;
        try {
            answer = JSON.readTree(reply);
        } catch (IOException e) {
            failure.compareAndSet(null, "seq " + seq + ": unreadable answer: " + e.getMessage());
            return Optional.empty();
        }
        JsonNode message = answer.path("message");
        if (message.isMissingNode()) {
            if (answer.path("error").path("err_code").asInt() != NO_MESSAGE_FOUND) {
                failure.compareAndSet(null, "seq " + seq + ": " + answer.path("error"));
            }
            return Optional.empty();
        }
        Base64.Decoder b64 = Base64.getDecoder();
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (message.hasNonNull("hdrs")) {
            String block = new String(b64.decode(message.path("hdrs").asText()), StandardCharsets.UTF_8);
            for (String line : block.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && !line.startsWith("NATS/")) {
                    headers.computeIfAbsent(line.substring(0, colon).trim(), k -> new ArrayList<>())
                        .add(line.substring(colon + 1).trim());
                }
            }
        }
        byte[] data = message.hasNonNull("data") ? b64.decode(message.path("data").asText()) : new byte[0];
        return Optional.of(new StoredMessage(seq, message.path("subject").asText(), headers, data));
    }

    private static Map<String, List<String>> headers(Message msg) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Headers headers = msg.getHeaders();
        if (headers != null) {
            headers.entrySet().forEach(e -> out.put(e.getKey(), List.copyOf(e.getValue())));
        }
        return out;
    }

    private static JetStreamManagement jsm(Connection conn) throws IOException {
        return conn.jetStreamManagement();
    }

    /**
     * {@link #call}, repeated while the server does not answer for up to {@link #SETTLE}: from
     * nats-server 2.11 a stream leader elected after a restart answers requests only once it has
     * applied its log, and until then a request gets no reply at all (2.9 answered at once).
     */
    private static <T> T patiently(String what, JsCall<T> call) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (true) {
            try {
                return call.run();
            } catch (IOException e) {
                if (!String.valueOf(e.getMessage()).startsWith(NO_ANSWER) || System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("cannot " + what + ": " + e.getMessage(), e);
                }
                pause();
            } catch (JetStreamApiException e) {
                throw new IllegalStateException("cannot " + what + ": " + e.getMessage(), e);
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(250);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static <T> T call(String what, JsCall<T> call) {
        try {
            return call.run();
        } catch (IOException | JetStreamApiException e) {
            throw new IllegalStateException("cannot " + what + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface JsCall<T> {
        T run() throws IOException, JetStreamApiException;
    }
}
