package dev.jetsink.internal.publish;

import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.api.MessageInfo;
import io.nats.client.impl.Headers;
import io.nats.client.support.NatsJetStreamConstants;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads back stored messages of an ordered target's stream (DESIGN.md "Order per object"), one
 * {@code STREAM.MSG.GET} request each, bounded by {@value #LIMIT_SECONDS} s and by what is left of
 * the attempt (a user without leave to read is answered by no one: the request runs into that
 * bound, and it holds back only its own object). Two questions need it:
 * <ul>
 *   <li>which {@value MessageHeaders#SEQUENCE} the copy a duplicate publish met carries: a store's
 *   re-send of an event jetsink had already stored can reach the queue after a newer event of its
 *   object and be given the next number, which its duplicate publish does not store; knowing the
 *   stored copy's number lets the target hand that number to the object's next event instead of
 *   leaving a gap;</li>
 *   <li>which message is last on an object's own subject, when the stream refused a publish for
 *   its {@code Nats-Expected-Last-Subject-Sequence} ({@link ObjectSubjects}).</li>
 * </ul>
 */
final class StoredCopies {
    private static final Logger log = LoggerFactory.getLogger(StoredCopies.class);
    private static final int LIMIT_SECONDS = 2;
    /** Least time given to a read, even when the attempt has less left: a read skipped costs a gap. */
    private static final Duration FLOOR = Duration.ofMillis(200);
    /** The API's "no message found". */
    private static final int NO_MESSAGE = 10037;

    /**
     * A stored message: its stream sequence, its {@code Nats-Msg-Id} (null when it has none) and the
     * number it carries (0 when none, {@link Publisher.Delivered#UNKNOWN} when unreadable).
     * {@link #NONE} when the subject holds no message.
     */
    record Copy(long streamSeq, String msgId, long number) {
        static final Copy NONE = new Copy(0, null, 0);
    }

    private final String request;
    private final String stream;
    private final String target;

    /** For {@code stream}, through the JetStream API at {@code apiPrefix} (ending in a dot). */
    StoredCopies(String apiPrefix, String stream, String target) {
        this.request = apiPrefix + "STREAM.MSG.GET." + stream;
        this.stream = stream;
        this.target = target;
    }

    /**
     * The number the message at {@code streamSeq} carries when it is the copy of {@code msgId} (the
     * first stored; a duplicate ack names it), 0 when it carries none, or
     * {@link Publisher.Delivered#UNKNOWN} when it could not be read in time (no
     * permission for the request, the message gone, the connection down): a WARN line each time
     * (duplicates are rare: a re-send or a re-publish), since its object may then show a gap of one
     * that hides nothing.
     */
    CompletableFuture<Long> numberOf(Connection c, long streamSeq, String msgId, Duration attemptLeft) {
        return read(c, "{\"seq\":" + streamSeq + "}", attemptLeft).handle((copy, failure) -> {
            if (failure != null) {
                return failed(streamSeq, reason(failure));
            }
            if (copy == Copy.NONE) {
                return failed(streamSeq, "no message there");
            }
            if (!msgId.equals(copy.msgId())) {
                // not the copy the duplicate met (replicas that disagree, a stream made anew): no answer
                return failed(streamSeq, "it holds msg id " + copy.msgId() + ", not " + msgId);
            }
            return copy.number() == Publisher.Delivered.UNKNOWN ? failed(streamSeq, "its " + MessageHeaders.SEQUENCE
                + " is not a positive number") : copy.number();
        });
    }

    /** The last message on {@code subject}, {@link Copy#NONE} when there is none; fails with the reason it could not be read. */
    CompletableFuture<Copy> lastOn(Connection c, String subject, Duration attemptLeft) {
        return read(c, "{\"last_by_subj\":\"" + jsonText(subject) + "\"}", attemptLeft);
    }

    /** {@code s} as the inside of a JSON string (a subject has no control characters, but may hold a quote). */
    private static String jsonText(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\\') {
                b.append('\\');
            }
            if (ch < 0x20) {
                b.append(String.format("\\u%04x", (int) ch));
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }

    private CompletableFuture<Copy> read(Connection c, String body, Duration attemptLeft) {
        Duration within = attemptLeft.compareTo(Duration.ofSeconds(LIMIT_SECONDS)) < 0 ? attemptLeft
            : Duration.ofSeconds(LIMIT_SECONDS);
        if (within.compareTo(FLOOR) < 0) {
            within = FLOOR;
        }
        try {
            // jnats ends a request only at its cleanup sweep (every ack timeout + 30 s here): bound it here
            return c.requestWithTimeout(request, body.getBytes(StandardCharsets.UTF_8), within)
                .orTimeout(within.toNanos(), TimeUnit.NANOSECONDS)
                .thenApply(this::copyOf);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private Copy copyOf(Message reply) {
        if (reply.isStatusMessage()) {
            throw new IllegalStateException("status " + reply.getStatus().getCode() + " " + reply.getStatus().getMessage());
        }
        MessageInfo info = new MessageInfo(reply, stream, false);
        if (info.hasError()) {
            if (info.getApiErrorCode() == NO_MESSAGE) {
                return Copy.NONE;
            }
            throw new IllegalStateException(info.getError().toString());
        }
        Headers h = info.getHeaders();
        String msgId = h == null ? null : h.getFirst(NatsJetStreamConstants.MSG_ID_HDR);
        String number = h == null ? null : h.getFirst(MessageHeaders.SEQUENCE);
        return new Copy(info.getSeq(), msgId, number == null ? 0 : positive(number));
    }

    private static long positive(String number) {
        try {
            long n = Long.parseLong(number.trim());
            return n > 0 ? n : Publisher.Delivered.UNKNOWN;
        } catch (NumberFormatException e) {
            return Publisher.Delivered.UNKNOWN;
        }
    }

    /** Why a read failed, in a log line's words. */
    static String reason(Throwable failure) {
        Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return t instanceof IllegalStateException ? t.getMessage() : t.toString();
    }

    /** The request's subject, which the target's user must be allowed to publish to. */
    String request() {
        return request;
    }

    private long failed(long streamSeq, String why) {
        log.warn("target=\"{}\" stream={} seq={} the stored copy of a duplicate could not be read back ({}): its object's"
            + " Jetsink-Sequence may show a gap of one with nothing missing (the read is a publish to {}, which the target's"
            + " user must be allowed)",
            target, stream, streamSeq, why, request);
        return Publisher.Delivered.UNKNOWN;
    }
}
