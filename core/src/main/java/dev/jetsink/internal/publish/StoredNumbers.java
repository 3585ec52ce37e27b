package dev.jetsink.internal.publish;

import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.api.MessageInfo;
import io.nats.client.impl.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads back the {@value MessageHeaders#SEQUENCE} of the copy a duplicate publish met, for an
 * ordered target (DESIGN.md "Order per object"): a store's re-send of an event jetsink had already
 * stored can reach the queue after a newer event of its object and be given the next number,
 * which its duplicate publish does not store; knowing the stored copy's number lets the target
 * hand that number to the object's next event instead of leaving a gap. One
 * {@code STREAM.MSG.GET} request per such duplicate, bounded by {@value #LIMIT_SECONDS} s and by
 * what is left of the attempt (a user without leave to read is answered by no one: the request
 * runs into that bound, and it holds back only the duplicate's object).
 */
final class StoredNumbers {
    private static final Logger log = LoggerFactory.getLogger(StoredNumbers.class);
    private static final int LIMIT_SECONDS = 2;
    /** Least time given to the read, even when the attempt has less left: a read skipped costs a gap. */
    private static final Duration FLOOR = Duration.ofMillis(200);

    private final String request;
    private final String stream;
    private final String target;

    /** For {@code stream}, through the JetStream API at {@code apiPrefix} (ending in a dot). */
    StoredNumbers(String apiPrefix, String stream, String target) {
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
    CompletableFuture<Long> of(Connection c, long streamSeq, String msgId, Duration attemptLeft) {
        Duration within = attemptLeft.compareTo(Duration.ofSeconds(LIMIT_SECONDS)) < 0 ? attemptLeft
            : Duration.ofSeconds(LIMIT_SECONDS);
        if (within.compareTo(FLOOR) < 0) {
            within = FLOOR;
        }
        byte[] body = ("{\"seq\":" + streamSeq + "}").getBytes(StandardCharsets.US_ASCII);
        try {
            // jnats ends a request only at its cleanup sweep (every ack timeout + 30 s here): bound it here
            return c.requestWithTimeout(request, body, within).orTimeout(within.toNanos(), TimeUnit.NANOSECONDS)
                .handle((reply, failure) -> failure != null ? failed(streamSeq, failure.toString()) : read(reply, streamSeq, msgId));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(streamSeq, e.toString()));
        }
    }

    private long read(Message reply, long streamSeq, String msgId) {
        if (reply.isStatusMessage()) {
            return failed(streamSeq, "status " + reply.getStatus().getCode() + " " + reply.getStatus().getMessage());
        }
        MessageInfo info;
        try {
            info = new MessageInfo(reply, stream, false);
        } catch (RuntimeException e) {
            return failed(streamSeq, "unreadable answer: " + e);
        }
        if (info.hasError()) {
            return failed(streamSeq, info.getError().toString());
        }
        Headers h = info.getHeaders();
        String storedId = h == null ? null : h.getFirst(io.nats.client.support.NatsJetStreamConstants.MSG_ID_HDR);
        if (!msgId.equals(storedId)) {
            // not the copy the duplicate met (replicas that disagree, a stream made anew): no answer
            return failed(streamSeq, "it holds msg id " + storedId + ", not " + msgId);
        }
        String number = h.getFirst(MessageHeaders.SEQUENCE);
        if (number == null) {
            return 0;
        }
        try {
            long n = Long.parseLong(number.trim());
            return n > 0 ? n : failed(streamSeq, MessageHeaders.SEQUENCE + " " + number);
        } catch (NumberFormatException e) {
            return failed(streamSeq, MessageHeaders.SEQUENCE + " " + number);
        }
    }

    private long failed(long streamSeq, String why) {
        log.warn("target=\"{}\" stream={} seq={} the stored copy of a duplicate could not be read back ({}): its object's"
            + " Jetsink-Sequence may show a gap of one with nothing missing (the read is a publish to {}, which the target's"
            + " user must be allowed)",
            target, stream, streamSeq, why, request);
        return Publisher.Delivered.UNKNOWN;
    }
}
