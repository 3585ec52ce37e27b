package dev.jetsink.internal.publish;

import dev.jetsink.PayloadFormat;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.CloudEventAttributes;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.MessageFormats;
import dev.jetsink.internal.queue.EntryAttributes;
import io.nats.client.impl.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The headers of every published message, on both paths, so consumers route and
 * filter without parsing the payload: {@code Content-Type}, {@code Jetsink-Kind},
 * {@code Jetsink-Event}, {@code Jetsink-Bucket}, {@code Jetsink-Key} (notify) or
 * {@code Jetsink-Api} (audit), and the W3C {@code traceparent}/{@code tracestate} the event came
 * with. They come from the entry's stored metadata, never from request headers, so they carry no
 * credentials. NATS header values are printable ASCII: other bytes (and {@code %}) are
 * percent-encoded as UTF-8, and each value is cut at {@value #MAX_VALUE_BYTES} bytes. A message
 * also carries its CloudEvents attributes, one {@code ce-} header each, encoded as the
 * CloudEvents NATS binding writes them and never cut; a structured-mode CloudEvent
 * is {@code application/cloudevents+json}. A message of a target with {@code ORDER=key} carries
 * {@value #SEQUENCE}.
 */
public final class MessageHeaders {
    static final int MAX_VALUE_BYTES = 1024;
    /** An ordered target's ({@code ORDER=key}) place of the message among its object's messages: 1, 2, 3, ... */
    public static final String SEQUENCE = "Jetsink-Sequence";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private MessageHeaders() {
    }

    public static Headers of(PayloadFormat format, EventMetadata m, EntryAttributes a) {
        return of(format, m, a.traceparent(), a.tracestate(), CloudEventAttributes.fromJson(a.cloudEvent()));
    }

    /**
     * With the publish span's context in place of the stored one when the span has one, and the
     * entry's {@value #SEQUENCE} when {@code keySequence} is positive.
     */
    public static Headers of(PayloadFormat format, EventMetadata m, EntryAttributes a, Tracing.Span publish,
                             long keySequence) {
        Map<String, String> cloudEvent = CloudEventAttributes.fromJson(a.cloudEvent());
        Headers h = publish.traceparent().isPresent()
            ? of(format, m, publish.traceparent(), publish.tracestate(), cloudEvent)
            : of(format, m, a.traceparent(), a.tracestate(), cloudEvent);
        if (keySequence > 0) {
            h.put(SEQUENCE, Long.toString(keySequence));
        }
        return h;
    }

    public static Headers of(PayloadFormat format, EventMetadata m, Optional<String> traceparent,
                             Optional<String> tracestate, Map<String, String> cloudEvent) {
        Headers h = new Headers();
        h.put("Content-Type", format == PayloadFormat.CLOUDEVENTS_STRUCTURED
            ? MessageFormats.STRUCTURED_CONTENT_TYPE : "application/json");
        h.put("Jetsink-Kind", m.kind() == TargetKind.NOTIFY ? "notify" : "audit");
        put(h, "Jetsink-Event", m.eventName());
        put(h, "Jetsink-Bucket", m.bucket());
        put(h, m.kind() == TargetKind.NOTIFY ? "Jetsink-Key" : "Jetsink-Api", m.object());
        traceparent.ifPresent(v -> put(h, "traceparent", v));
        tracestate.ifPresent(v -> put(h, "tracestate", v));
        cloudEvent.forEach((name, value) ->
            h.put(CloudEventAttributes.HEADER_PREFIX + name, CloudEventAttributes.encodeHeaderValue(value)));
        return h;
    }

    private static void put(Headers h, String name, String value) {
        if (!value.isEmpty()) {
            h.put(name, value(value));
        }
    }

    /** {@code raw} as a header value: see the class comment. */
    static String value(String raw) {
        if (raw.length() <= MAX_VALUE_BYTES && printableAscii(raw)) {
            return raw; // nearly every bucket, key and event name: nothing to encode or cut
        }
        StringBuilder b = new StringBuilder(Math.min(raw.length(), MAX_VALUE_BYTES));
        StringBuilder unit = new StringBuilder(12);
        for (int i = 0; i < raw.length(); i += Character.charCount(raw.codePointAt(i))) {
            unit.setLength(0);
            for (byte x : new String(Character.toChars(raw.codePointAt(i))).getBytes(StandardCharsets.UTF_8)) {
                int c = x & 0xFF;
                if (c >= 0x20 && c <= 0x7E && c != '%') {
                    unit.append((char) c);
                } else {
                    unit.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
                }
            }
            if (b.length() + unit.length() > MAX_VALUE_BYTES) {
                break; // never split a character
            }
            b.append(unit);
        }
        return b.toString();
    }

    private static boolean printableAscii(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < 0x20 || c > 0x7E || c == '%') {
                return false;
            }
        }
        return true;
    }
}
