package dev.jetsink.server.demo;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.nats.DuplicateWindow;
import dev.jetsink.server.http.HttpJson;
import io.nats.client.Connection;
import io.nats.client.IterableConsumer;
import io.nats.client.Message;
import io.nats.client.api.OrderedConsumerConfiguration;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The demo's stream: provisioned the way an operator should (file storage, duplicate window
 * sized for the ack timeout, see DESIGN.md "Stream validation and verdict"), and read back at the
 * end to count what arrived.
 */
public final class DemoStream {

    static final String NAME = "JETSINK_DEMO";
    static final String NOTIFY_SUBJECT = "jetsink.demo.notify";
    static final String AUDIT_SUBJECT = "jetsink.demo.audit";
    static final int ACK_TIMEOUT_SECS = 30;

    private DemoStream() {
    }

    static void provision(Connection c) throws Exception {
        c.jetStreamManagement().addStream(StreamConfiguration.builder()
            .name(NAME).subjects("jetsink.demo.>").storageType(StorageType.File).replicas(1)
            .duplicateWindow(DuplicateWindow.required(ACK_TIMEOUT_SECS)).build());
    }

    /**
     * What the stream holds: message count, distinct {@code Nats-Msg-Id}s, and how often each
     * demo event (by its request id) arrived.
     */
    record Tally(long messages, int distinctMsgIds, Map<String, Integer> perEvent) {
        long duplicates() {
            return perEvent.values().stream().mapToLong(n -> n - 1L).sum();
        }
    }

    @SuppressWarnings("try") // jnats' IterableConsumer.close() declares InterruptedException; try-with-resources is still how it is closed
    static Tally read(Connection c) throws Exception {
        long expected = c.jetStreamManagement().getStreamInfo(NAME).getStreamState().getMsgCount();
        Set<String> ids = new HashSet<>();
        Map<String, Integer> perEvent = new HashMap<>();
        long read = 0;
        if (expected > 0) {
            try (IterableConsumer consumer = c.getStreamContext(NAME)
                    .createOrderedConsumer(new OrderedConsumerConfiguration()).iterate()) {
                while (read < expected) {
                    Message m = consumer.nextMessage(Duration.ofSeconds(10));
                    if (m == null) {
                        throw new IllegalStateException("stream stopped delivering after " + read + " of " + expected);
                    }
                    read++;
                    if (m.getHeaders() != null && m.getHeaders().getFirst("Nats-Msg-Id") != null) {
                        ids.add(m.getHeaders().getFirst("Nats-Msg-Id"));
                    }
                    perEvent.merge(eventId(m.getData()), 1, Integer::sum);
                }
            }
        }
        return new Tally(read, ids.size(), perEvent);
    }

    /** The demo's own id of an event: the audit {@code requestID} or the notify {@code x-amz-request-id}. */
    private static String eventId(byte[] payload) throws java.io.IOException {
        JsonNode data = Json.READER.readTree(payload).at("/Records/0/data");
        JsonNode audit = data.path("requestID");
        return audit.isTextual() ? audit.asText() : data.at("/responseElements/x-amz-request-id").asText();
    }
}
