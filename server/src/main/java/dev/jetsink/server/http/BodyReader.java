package dev.jetsink.server.http;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Reads a request body without holding a thread while its bytes trickle in: each chunk is taken
 * when Jetty has one, and the reader asks to be called back for the next. Bytes are charged to the
 * {@link BodyBudget} as they arrive; a chunk that finds no room waits (polling, no thread held) up
 * to {@link BodyBudget#WAIT}. Exactly one {@link Outcome} reaches the consumer.
 */
public final class BodyReader {

    /** How a body read ended. */
    public sealed interface Outcome {
        /** The whole body, within the limit. */
        record Complete(byte[] body) implements Outcome {
        }

        /** More than the limit arrived (or was declared). */
        record TooLarge(int limit) implements Outcome {
        }

        /** The body budget had no room within {@link BodyBudget#WAIT}. */
        record Busy() implements Outcome {
        }

        /** The request timeout passed before the body was complete. */
        record TimedOut() implements Outcome {
        }

        /** The connection failed or the client went away. */
        record Failed(Throwable cause) implements Outcome {
        }
    }

    private static final long RETRY_MILLIS = 20;
    /**
     * Bytes read and thrown away after a body is refused (too large, no room) so the answer reaches
     * the client: closing a socket with unread input resets it, and the client would lose the
     * answer. Past this the connection is closed anyway.
     */
    private static final long DISCARD_LIMIT = 64L * 1024 * 1024;

    private final Request request;
    private final int limit;
    private final BodyBudget.Grant grant;
    private final RequestDeadlines deadlines;
    private final Scheduler scheduler;
    private final Consumer<Outcome> then;
    /**
     * The body so far. It grows as bytes arrive (and are charged to the budget), never ahead of
     * them by more than its own size: a declared length is not trusted with memory. A body that
     * arrives in one chunk is copied once, into an array of its size.
     */
    private byte[] bytes = new byte[0];
    private int size;
    private final AtomicBoolean done = new AtomicBoolean();
    private Content.Chunk waiting;
    private long waitingSince;
    private Outcome refused;
    private long discarded;

    private BodyReader(Request request, int limit, BodyBudget.Grant grant, RequestDeadlines deadlines,
                       Scheduler scheduler, Consumer<Outcome> then) {
        this.request = request;
        this.limit = limit;
        this.grant = grant;
        this.deadlines = deadlines;
        this.scheduler = scheduler;
        this.then = then;
    }

    /**
     * Starts reading; {@code then} gets the outcome on whichever thread finishes the read. A body
     * declared longer than {@code limit} is refused without keeping any of it.
     */
    public static void read(Request request, int limit, BodyBudget.Grant grant, RequestDeadlines deadlines,
                     Consumer<Outcome> then) {
        Scheduler scheduler = request.getComponents().getScheduler();
        BodyReader reader = new BodyReader(request, limit, grant, deadlines, scheduler, then);
        if (request.getLength() > limit + DISCARD_LIMIT) {
            reader.finish(new Outcome.TooLarge(limit));
            return;
        }
        Connection connection = request.getConnectionMetaData().getConnection();
        deadlines.whileReadingBody(connection, () -> reader.finish(new Outcome.TimedOut()));
        if (request.getLength() > limit) {
            reader.discardRest(new Outcome.TooLarge(limit), false);
        }
        reader.readAvailable();
    }

    private void readAvailable() {
        if (done.get() && waiting != null) {
            // finished (timed out) while a chunk waited for room
            waiting.release();
            waiting = null;
        }
        while (!done.get()) {
            Content.Chunk chunk = waiting != null ? waiting : request.read();
            waiting = null;
            if (chunk == null) {
                request.demand(this::readAvailable);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                finish(new Outcome.Failed(chunk.getFailure()));
                return;
            }
            ByteBuffer buffer = chunk.getByteBuffer();
            int n = buffer.remaining();
            if (refused != null) {
                discarded += n;
                boolean last = chunk.isLast();
                chunk.release();
                if (last || discarded > DISCARD_LIMIT) {
                    finish(refused);
                    return;
                }
                continue;
            }
            if (size + (long) n > limit) {
                boolean last = chunk.isLast();
                chunk.release();
                discardRest(new Outcome.TooLarge(limit), last);
                continue;
            }
            if (n > 0 && !grant.charge(n)) {
                waitForRoom(chunk);
                return;
            }
            waitingSince = 0;
            if (size + n > bytes.length) {
                long declared = request.getLength();
                long room = chunk.isLast() ? size + n : Math.max(Math.max(2L * bytes.length, 8192), (long) size + n);
                bytes = Arrays.copyOf(bytes, (int) Math.min(room, declared >= size + n ? declared : limit));
            }
            buffer.get(bytes, size, n);
            size += n;
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                HttpJson.bodyRead(request);
                deadlines.received(request.getConnectionMetaData().getConnection());
                finish(new Outcome.Complete(size == bytes.length ? bytes : Arrays.copyOf(bytes, size)));
                return;
            }
        }
    }

    // The chunk stays unread in hand (Jetty reads no more meanwhile) and is tried again shortly.
    private void waitForRoom(Content.Chunk chunk) {
        long now = System.nanoTime();
        if (waitingSince == 0) {
            waitingSince = now;
        } else if (now - waitingSince > BodyBudget.WAIT.toNanos()) {
            boolean last = chunk.isLast();
            chunk.release();
            discardRest(new Outcome.Busy(), last);
            readAvailable();
            return;
        }
        waiting = chunk;
        scheduler.schedule(this::readAvailable, RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    // What was held goes back now; the rest of the body is read and dropped before the answer.
    private void discardRest(Outcome outcome, boolean alreadyAtEnd) {
        grant.close();
        bytes = new byte[0];
        size = 0;
        refused = outcome;
        if (alreadyAtEnd) {
            finish(outcome);
        }
    }

    private void finish(Outcome outcome) {
        if (done.compareAndSet(false, true)) {
            then.accept(outcome);
        }
    }
}
