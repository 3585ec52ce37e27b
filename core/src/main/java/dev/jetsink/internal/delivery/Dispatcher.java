package dev.jetsink.internal.delivery;

import dev.jetsink.internal.nats.Classified;
import dev.jetsink.internal.publish.Publisher;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.time.Deadline;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One target's delivery loop (DESIGN.md "Delivery"): reads live entries oldest first, keeps up to
 * {@code publish_window} publishes in flight, resolves each entry on its acknowledgement (or after
 * its failed record is written), and retries everything else.
 *
 * <p>All state is owned by one thread; completions, wake-ups and connection events arrive as
 * signals. A transient outcome puts the target in probe mode: one entry is retried on the
 * 4/8/16/32 s schedule while nothing else is published, so an outage costs one probe per step.
 */
public final class Dispatcher implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    private static final int PAGE = 4096;
    private static final long PERMIT_WAIT_MILLIS = 20;

    private sealed interface Signal {
    }

    private record Completed(PendingEntry entry, long attemptId, Permits.Group group,
                             Publisher.Delivered delivered, Throwable error) implements Signal {
    }

    private record Wake() implements Signal {
    }

    private record WakeProbe() implements Signal {
    }

    private record Stop(Duration grace) implements Signal {
    }

    private final DeliveryContext ctx;
    private final Publisher path;
    private final OutcomeHandling outcomes;
    private final BlockingQueue<Signal> inbox = new LinkedBlockingQueue<>();
    private final Map<Long, PendingEntry> inFlight = new HashMap<>();
    /** Entries retried alone, each until its own backoff ends; wakes the loop at the earliest. */
    private final Delays delayed;
    private final WaitingLine<PendingEntry> line;
    private final Permits permits;
    /** Present for a target that keeps each object's order ({@code ORDER=key}). */
    private final KeyOrder order;
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private PendingEntry probe;
    /** Publish attempts started; written by the dispatcher thread only, read by anyone. */
    private volatile long attempts;
    private long stopAtNanos = Long.MAX_VALUE;
    private boolean stopping;

    public Dispatcher(DeliveryContext ctx, Publisher path, OutcomeHandling outcomes) {
        this.ctx = ctx;
        this.path = path;
        this.outcomes = outcomes;
        this.permits = new Permits(ctx.concurrency(), ctx.publishWindow());
        this.order = KeyOrder.of(ctx).orElse(null);
        this.delayed = new Delays(ctx.sleeper(), () -> inbox.add(new Wake()));
        this.line = new WaitingLine<>(
            (after, max) -> ctx.queue().live(after, max).stream().map(this::pending).toList(),
            PendingEntry::seq, PAGE, 0);
    }

    /** New entries were appended: look at the queue again. */
    public void wake() {
        inbox.add(new Wake());
    }

    /** The connection came back (new connection or RECONNECTED): end a pending backoff sleep now. */
    public void wakeProbe() {
        inbox.add(new WakeProbe());
    }

    /** Stops opening publishes, waits up to {@code grace} for those in flight, then ends. */
    public CompletableFuture<Void> stop(Duration grace) {
        inbox.add(new Stop(grace));
        return stopped;
    }

    @Override
    public void run() {
        try {
            while (true) {
                boolean progressed = false;
                try {
                    progressed = !stopping && step();
                } catch (RuntimeException e) {
                    // One bad step must not end delivery for the target: log, pause briefly, go on.
                    log.error("dispatcher step failed, retrying target=\"{}\" error={}", ctx.target(), e.toString(), e);
                    lastStepFailed = true;
                }
                if (stopping && (inFlight.isEmpty() || System.nanoTime() - stopAtNanos >= 0)) {
                    break;
                }
                Signal s = progressed ? inbox.poll() : inbox.poll(idleWaitMillis(), TimeUnit.MILLISECONDS);
                lastStepFailed = false;
                while (s != null) {
                    try {
                        handle(s);
                    } catch (RuntimeException e) {
                        log.error("dispatcher failed to handle an outcome target=\"{}\" error={}", ctx.target(), e.toString(), e);
                    }
                    s = inbox.poll();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (order != null) {
                order.close();
            }
            stopped.complete(null);
        }
    }

    private long idleWaitMillis() {
        if (stopping) {
            return Math.max(1, TimeUnit.NANOSECONDS.toMillis(stopAtNanos - System.nanoTime()));
        }
        // Waiting for a concurrency permit, or after a failed step, nothing signals us: poll.
        if (lastStepFailed) {
            return 1000;
        }
        if (waitingForPermit) {
            // Holding no permit, the wait happened in the semaphore's fair queue: take the signals
            // that came meanwhile and queue again at once.
            return permits.holdsNone() ? 0 : PERMIT_WAIT_MILLIS;
        }
        return 60_000;
    }

    private boolean waitingForPermit;
    private boolean lastStepFailed;

    /** Does the next piece of work, if any; false when only a signal can unblock it. */
    private boolean step() throws InterruptedException {
        waitingForPermit = false;
        Instant now = ctx.clock().instant();
        if (probe != null) {
            if (inFlight.containsKey(probe.seq())) {
                return false;
            }
            if (now.isBefore(probe.notBefore())) {
                delayed.sleepUntil(probe.notBefore(), now);
                return false;
            }
            return attempt(List.of(probe));
        }
        delayed.releaseDue(now, line::putBack);
        int room = ctx.publishWindow() - inFlight.size();
        if (room <= 0 || !line.hasNext()) {
            return false;
        }
        List<PendingEntry> batch = new ArrayList<>(Math.min(room, PAGE));
        while (batch.size() < room) {
            Optional<PendingEntry> next = nextAdmitted(false);
            if (next.isEmpty()) {
                break;
            }
            batch.add(next.get());
        }
        return !batch.isEmpty() && attempt(batch);
    }

    /**
     * The next entry of the line that may be published now; with per-object order, the others are
     * held, up to the bound unless {@code past} (the line then surely holds an entry that may go).
     */
    private Optional<PendingEntry> nextAdmitted(boolean past) {
        while (order == null || past || !order.full()) {
            Optional<PendingEntry> next = line.poll();
            if (next.isEmpty() || order == null) {
                return next;
            }
            PendingEntry p = next.get();
            switch (order.admit(p)) {
                case GO -> {
                    return next;
                }
                case FOLLOW_FAILED -> moveToFailedStore(p, p.follows());
                case HOLD -> {
                }
            }
        }
        return Optional.empty();
    }

    /** One fill: preconditions once, then a publish per entry, all under one attempt deadline. */
    private boolean attempt(List<PendingEntry> batch) throws InterruptedException {
        Optional<Permits.Group> granted = permits.open();
        if (granted.isEmpty()) {
            batch.stream().filter(p -> p != probe).forEach(line::putBack);
            // Only a permit held by another target needs polling; our own drain signals us.
            waitingForPermit = permits.blockedByOthers();
            return false;
        }
        Permits.Group group = granted.get();
        if (batch.size() > permits.room(group)) {
            batch.subList(permits.room(group), batch.size()).forEach(line::putBack);
            batch = batch.subList(0, permits.room(group));
        }
        Deadline deadline = Deadline.after(ctx.ackTimeout());
        try {
            path.prepare(deadline);
        } catch (InterruptedException e) {
            permits.unused(group);
            throw e;
        } catch (Exception e) {
            permits.unused(group);
            // The attempt of the oldest entry failed before publishing; the rest were not tried.
            PendingEntry first = batch.get(0);
            batch.stream().skip(1).forEach(line::putBack);
            handleFailure(first, outcomes.classifyPreparation(e));
            return true;
        }
        for (PendingEntry p : batch) {
            long id = ++attempts;
            p.attemptId(id);
            inFlight.put(p.seq(), p);
            permits.opened(group);
            CompletableFuture<Publisher.Delivered> f;
            try {
                f = path.publish(p.entry(), order == null ? 0 : order.sequence(p), readPayload(p), deadline);
            } catch (Exception e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((d, t) -> inbox.add(new Completed(p, id, group, d, t)));
        }
        path.endFill(deadline);
        return true;
    }

    /** Entries waiting behind an unsettled earlier entry of their object ({@code ORDER=key}); 0 otherwise. */
    public int heldForOrder() {
        return order == null ? 0 : order.held();
    }

    /** How many publish attempts this dispatcher has started, probes and retries included. */
    public long attemptsStarted() {
        return attempts;
    }

    private void handle(Signal s) {
        if (s instanceof Completed c) {
            completed(c);
        } else if (s instanceof WakeProbe) {
            if (probe != null && !inFlight.containsKey(probe.seq())) {
                probe.notBefore(Instant.MIN);
            }
        } else if (s instanceof Stop st) {
            stopping = true;
            stopAtNanos = System.nanoTime() + st.grace().toNanos();
        }
    }

    private void completed(Completed c) {
        permits.completed(c.group());
        PendingEntry p = inFlight.get(c.entry().seq());
        if (p != c.entry() || p.attemptId() != c.attemptId()) {
            return; // an attempt already settled (failed at DISCONNECTED); its entry was retried
        }
        inFlight.remove(p.seq());
        if (c.error() == null) {
            delivered(p, c.delivered());
        } else {
            handleFailure(p, outcomes.classifyPublish(c.error(), p));
        }
    }

    private byte[] readPayload(PendingEntry p) throws QueueReadFailure {
        try {
            return ctx.queue().read(p.entry());
        } catch (RuntimeException e) {
            throw new QueueReadFailure(e);
        }
    }

    private void delivered(PendingEntry p, Publisher.Delivered d) {
        long attemptsMade = p.retry().recordFinalAttempt();
        if (order != null) {
            // its number before its resolution; the next entry may go
            order.settled(p, d.mayHoldNumber(p.keySequence())).ifPresent(line::putBack);
        }
        ctx.queue().resolve(p.seq());
        ctx.events().entryResolved(new LifecycleEvent.EntryResolved(ctx.target(), p.entry().msgId(), p.seq(),
            d.duplicate(), attemptsMade, Duration.between(p.entry().queuedAt(), ctx.clock().instant()),
            d.stream(), d.streamSeq()));
        if (p == probe) {
            leaveProbeMode();
        }
    }

    private void handleFailure(PendingEntry p, Classified c) {
        Outcome o = c.outcome();
        ctx.events().attemptFailed(new LifecycleEvent.AttemptFailed(
            ctx.target(), p.entry().msgId(), o, p.retry().attemptsInCycle() + 1));
        if (o.isPermanent() && ctx.failedStore().isPresent()) {
            moveToFailedStore(p, o);
        } else if (o.isPermanent() || c.entrySpecific()) {
            if (p == probe) {
                leaveProbeMode(); // the broker answered: only this entry has a problem
            }
            retryAlone(p, o);
        } else if (probe == null) {
            probe = p;
            ctx.events().probeModeEntered(new LifecycleEvent.ProbeModeEntered(ctx.target(), p.entry().msgId()));
            advanceProbe(p, o);
        } else if (p == probe) {
            advanceProbe(p, o);
        } else {
            // Not the probe: back to waiting with a fresh cycle, behind the probe's verdict.
            p.retry().recordFailure();
            p.retry().startNewCycle();
            line.putBack(p);
        }
    }

    private void moveToFailedStore(PendingEntry p, Outcome o) {
        long attemptsMade = p.retry().recordFinalAttempt();
        long upTo = ctx.newestSeq().getAsLong();
        Optional<java.nio.file.Path> recordFile = FailedMove.write(ctx, p.entry(), o, attemptsMade);
        if (recordFile.isEmpty()) {
            retryAlone(p, o); // without a durable failed record the entry must stay on the live queue
            return;
        }
        // the object's later events go with it, so that a replay keeps their order; marked before it leaves
        List<PendingEntry> followers = order == null || p.follows() != null ? List.of() : order.failed(p, upTo, o);
        ctx.queue().resolve(p.seq());
        ctx.events().movedToFailedStore(new LifecycleEvent.MovedToFailedStore(ctx.target(), p.entry().msgId(), p.seq(),
            o, attemptsMade, recordFile.get()));
        if (p == probe) {
            leaveProbeMode();
        }
        for (PendingEntry f : followers) {
            moveToFailedStore(f, f.follows());
        }
    }

    private void advanceProbe(PendingEntry p, Outcome o) {
        NextStep next = p.retry().recordFailure();
        if (next instanceof NextStep.RetryAfter r) {
            p.notBefore(ctx.clock().instant().plus(r.backoff()));
            return;
        }
        exhausted(p, (NextStep.CycleExhausted) next, o);
        probe = nextAdmitted(true).orElse(p); // p itself waits in the line, first of its key
        probe.notBefore(Instant.MIN);
        ctx.events().probeModeEntered(new LifecycleEvent.ProbeModeEntered(ctx.target(), probe.entry().msgId()));
    }

    /** Reschedules one entry on its own backoff while the others keep flowing. */
    private void retryAlone(PendingEntry p, Outcome o) {
        NextStep next = p.retry().recordFailure();
        if (next instanceof NextStep.RetryAfter r) {
            p.notBefore(ctx.clock().instant().plus(r.backoff()));
            delayed.add(p);
        } else {
            exhausted(p, (NextStep.CycleExhausted) next, o);
        }
    }

    /** The entry spent its cycle: one warning, then it waits behind everything waiting now. */
    private void exhausted(PendingEntry p, NextStep.CycleExhausted step, Outcome last) {
        ctx.events().cycleExhausted(new LifecycleEvent.CycleExhausted(
            ctx.target(), p.entry().msgId(), step.cycle(), step.lifetimeAttempts(), last.detail()));
        p.retry().startNewCycle();
        line.sendToBack(p, ctx.newestSeq().getAsLong());
    }

    private void leaveProbeMode() {
        probe = null;
        ctx.events().probeModeLeft(new LifecycleEvent.ProbeModeLeft(ctx.target()));
    }

    private PendingEntry pending(QueuedEntry e) {
        return new PendingEntry(e, ctx.schedule().newState());
    }
}
