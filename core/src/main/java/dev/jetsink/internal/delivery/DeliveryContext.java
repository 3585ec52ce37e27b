package dev.jetsink.internal.delivery;

import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.nats.OutcomeClassifier;
import dev.jetsink.internal.nats.Verdict;
import dev.jetsink.internal.publish.EntrySubjects;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.time.Sleeper;
import dev.jetsink.lifecycle.LifecycleListener;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Everything one target's dispatcher works with.
 *
 * @param target           display id, e.g. {@code notify primary:nats}
 * @param subjects         where each entry is published
 * @param stream           configured stream (empty string on the Core path)
 * @param failedStore      present on the JetStream path only: the Core path never writes it
 * @param capturingStream  looks up which stream captures the subject now (for the 10060 warning)
 * @param newestSeq        the newest sequence queued so far (an exhausted entry goes behind it)
 * @param orderDir         the queue dir of a target that keeps each object's order ({@link KeyOrder}), which
 *                         holds that order's files; empty for a target that does not
 */
public record DeliveryContext(
    String target,
    EntrySubjects subjects,
    String stream,
    QueueStore queue,
    Clock clock,
    Sleeper sleeper,
    RetrySchedule schedule,
    Verdict verdict,
    OutcomeClassifier classifier,
    StreamConcurrency concurrency,
    Duration ackTimeout,
    int publishWindow,
    Optional<FailedEventStore> failedStore,
    LifecycleListener events,
    Supplier<Optional<String>> capturingStream,
    LongSupplier newestSeq,
    Optional<Path> orderDir) {
}
