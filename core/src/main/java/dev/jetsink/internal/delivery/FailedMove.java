package dev.jetsink.internal.delivery;

import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.lifecycle.Outcome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes the failed record of an entry that leaves the live queue for the failed store. */
final class FailedMove {
    private static final Logger log = LoggerFactory.getLogger(FailedMove.class);

    private FailedMove() {
    }

    /** The record's file once it is durable; empty (logged) when it could not be written. */
    static Optional<Path> write(DeliveryContext ctx, QueuedEntry e, Outcome o, long attemptsMade) {
        try {
            byte[] payload = ctx.queue().read(e);
            return Optional.of(ctx.failedStore().orElseThrow().write(FailedRecord.terminal(e.seq(), e.msgId(), ctx.target(),
                ctx.subjects().of(e), e.metadata(), e.queuedAt(), ctx.clock().instant(), o.detail(),
                (int) Math.min(Integer.MAX_VALUE, attemptsMade), payload, e.replays(),
                e.attributes().cloudEvent(), e.attributes().orderKey())).path());
        } catch (IOException | RuntimeException ex) {
            log.error("failed-events store write failed, entry stays queued target=\"{}\" msg_id={} error={}",
                ctx.target(), e.msgId(), ex.getClass().getSimpleName());
            return Optional.empty();
        }
    }
}
