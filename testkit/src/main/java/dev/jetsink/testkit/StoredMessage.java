package dev.jetsink.testkit;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One message as the stream stored it.
 *
 * @param seq stream sequence number
 * @param subject the subject it was published to
 * @param headers its headers (empty map when it had none)
 * @param data its payload
 */
public record StoredMessage(long seq, String subject, Map<String, List<String>> headers,
                            byte[] data) {

    /** The header carrying JetStream's deduplication id. */
    public static final String MSG_ID_HEADER = "Nats-Msg-Id";

    /** Copies the headers so the record stays immutable. */
    public StoredMessage {
        headers = Map.copyOf(headers);
    }

    /** The {@code Nats-Msg-Id} header, if the message had one. */
    public Optional<String> msgId() {
        return header(MSG_ID_HEADER);
    }

    /** The first value of a header. */
    public Optional<String> header(String name) {
        List<String> values = headers.getOrDefault(name, List.of());
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The payload decoded as UTF-8. */
    public String text() {
        return new String(data, StandardCharsets.UTF_8);
    }
}
