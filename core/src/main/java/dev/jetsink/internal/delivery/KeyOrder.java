package dev.jetsink.internal.delivery;

import dev.jetsink.internal.event.OrderKeys;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.lifecycle.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which entries an ordered target ({@code ORDER=key}; DESIGN.md "Order per object") may publish:
 * of the entries of one key the dispatcher has taken from the queue and not yet settled, only the
 * oldest. The others are held here, off the waiting line, until it settles: stored (acknowledged,
 * or a duplicate of a copy already stored) or moved to the failed store. So at most one entry per
 * key is in flight, a timeout or a retry cycle of one entry holds back only its own key, and a
 * newer entry of a key can never be stored before an older one.
 *
 * <p>An entry that goes to the failed store takes its key's chain with it: the entries of its key
 * held now, and those queued up to that moment that the dispatcher has not read yet, follow it there
 * as they come, so a replay of the failed store puts them back in their order. Entries of the key
 * accepted after the failure are delivered as usual.
 *
 * <p>Owned by the dispatcher's thread. Holds at most {@value #MAX_HELD} entries: past that, the
 * dispatcher reads no further into the queue until a held entry is released.
 */
final class KeyOrder {
    private static final Logger log = LoggerFactory.getLogger(KeyOrder.class);
    /** Most entries held back at once; each costs its queue index (a few hundred bytes). */
    static final int MAX_HELD = 16_384;

    /** What the dispatcher does with an entry it took from the waiting line. */
    enum Admission {
        /** Publish it: it is the oldest unsettled entry of its key. */
        GO,
        /** Keep it back: an older entry of its key is not settled yet; it comes back when that one is. */
        HOLD,
        /** Move it to the failed store: an older entry of its key went there before it was read. */
        FOLLOW_FAILED
    }

    /** Unsettled entries per key, oldest first; the first may be out (in flight, waiting, retrying). */
    private final KeyChains open = new KeyChains();
    /** Keys whose entry went to the failed store: the newest sequence queued then, and what its followers get. */
    private final Map<String, Failed> failedUpTo = new HashMap<>();
    /** Written by the dispatcher's thread only; read by metrics. */
    private volatile int held;
    /** The queue dir whose order files it reads and writes; null for an order in memory only (tests). */
    private final Path dir;
    private final LongSupplier oldestLive;
    private final Consumer<Runnable> beforeResolutionsForced;
    private boolean attached;
    /** Where failures are kept across restarts; null when in memory only. */
    private FailureMarks marks;
    /** Each object's last Jetsink-Sequence; null when messages carry none. */
    private KeySequences sequences;

    /** An order kept in memory only: no marks across restarts, no Jetsink-Sequence. */
    KeyOrder() {
        this(null, () -> Long.MAX_VALUE, hook -> { });
    }

    private KeyOrder(Path dir, LongSupplier oldestLive, Consumer<Runnable> beforeResolutionsForced) {
        this.dir = dir;
        this.oldestLive = oldestLive;
        this.beforeResolutionsForced = beforeResolutionsForced;
    }

    /** The order of {@code ctx}'s target, when it keeps one; its files are read at {@link #attach}. */
    static Optional<KeyOrder> of(DeliveryContext ctx) {
        return ctx.orderDir().map(dir -> new KeyOrder(dir,
            () -> ctx.queue().live(0, 1).stream().mapToLong(QueuedEntry::seq).findFirst().orElse(Long.MAX_VALUE),
            ctx.queue()::beforeResolutionsForced));
    }

    /** The order kept in {@code queueDir}, attached, with {@code oldestLive} the oldest live queue sequence. */
    static KeyOrder open(Path queueDir, long oldestLive) {
        KeyOrder order = new KeyOrder(queueDir, () -> oldestLive, hook -> { });
        order.attach();
        return order;
    }

    /**
     * Reads the order's files, once, before the first entry is taken in (the queue is open by then):
     * the failures whose followers may still be queued, and the objects' sequences. A file that
     * cannot be opened leaves that part in memory only, logged: order still holds while the process
     * runs, but a failure's followers are not known after a restart, or messages carry no
     * {@code Jetsink-Sequence}.
     */
    void attach() {
        if (attached || dir == null) {
            return;
        }
        attached = true;
        try {
            Map<String, FailureMarks.Mark> kept = new HashMap<>();
            marks = FailureMarks.open(dir, oldestLive.getAsLong(), kept);
            kept.forEach((key, mark) -> failedUpTo.merge(key, new Failed(mark.upTo(), new Outcome(Outcome.Family.PERMANENT,
                Outcome.Cause.FOLLOWS_FAILED_EVENT, mark.detail(), OptionalInt.empty(), OptionalInt.empty())),
                (a, b) -> a.upTo() >= b.upTo() ? a : b));
        } catch (RuntimeException e) {
            log.error("order failures file in {} not usable ({}): failures are kept in memory only until the target is"
                + " opened again", dir, e.toString());
        }
        try {
            sequences = KeySequences.open(dir);
            sequences.keepInHand(this::inHand);
            // a durable resolution implies a durable number: when the numbers cannot be made durable, the
            // hook fails and the queue keeps the resolutions back until they can
            KeySequences forced = sequences;
            beforeResolutionsForced.accept(forced::force);
        } catch (RuntimeException e) {
            log.error("order sequences file in {} not usable ({}): messages carry no Jetsink-Sequence until the target"
                + " is opened again", dir, e.toString());
        }
    }

    /** The objects whose first entry may carry a number not yet settled (their key hashes): their table rows must stay. */
    private long[] inHand() {
        return open.firsts().stream().mapToLong(KeyOrder::keyHash).toArray();
    }

    /** The key an entry is ordered by: the one stored with it, or (queued unordered) its bucket and object. */
    static String keyOf(QueuedEntry e) {
        return e.attributes().orderKey().orElseGet(() -> OrderKeys.bounded(e.metadata().bucket() + "/" + e.metadata().object()));
    }

    /** Takes in an entry from the waiting line (again, after a failed attempt); says what to do with it. */
    Admission admit(PendingEntry p) {
        attach();
        if (p.follows() != null) {
            return Admission.FOLLOW_FAILED; // its move to the failed store failed: again
        }
        if (p.orderKey() != null) {
            if (open.first(keyHash(p), p.orderKey()) != p) {
                throw new IllegalStateException("an entry came back that is not the oldest of its key: seq " + p.seq());
            }
            return Admission.GO;
        }
        String key = keyOf(p.entry());
        Failed failed = failedUpTo.isEmpty() ? null : failedUpTo.get(key);
        if (failed != null) {
            if (p.seq() <= failed.upTo()) {
                p.orderKey(key);
                p.follows(failed.outcome());
                consume(p);
                return Admission.FOLLOW_FAILED;
            }
            failedUpTo.remove(key); // entries come from the queue oldest first: no older one is left
        }
        p.orderKey(key);
        if (!open.append(keyHash(p), key, p)) {
            held++;
            return Admission.HOLD;
        }
        return Admission.GO;
    }

    /** {@link #settled(PendingEntry, boolean)} for an entry the stream holds with its number. */
    Optional<PendingEntry> settled(PendingEntry p) {
        return settled(p, true);
    }

    /**
     * {@code p} is settled (stored, or a duplicate of a stored copy): the entry of its key that may
     * go now, which the dispatcher puts back in the waiting line. {@code numberStored} is false
     * when its publish was a duplicate of a copy stored with another number (a sender's re-send of
     * an event stored before a newer one of its object): its number then stays free for the
     * object's next event, so no false gap shows.
     */
    Optional<PendingEntry> settled(PendingEntry p, boolean numberStored) {
        if (p.orderKey() == null || !open.remove(keyHash(p), p.orderKey(), p)) {
            return Optional.empty();
        }
        if (numberStored) {
            consume(p);
        } else {
            log.debug("seq={} msg_id={} was stored before under another Jetsink-Sequence: {} stays its object's next",
                p.seq(), p.entry().msgId(), p.keySequence());
        }
        PendingEntry next = open.first(keyHash(p), p.orderKey());
        if (next == null) {
            return Optional.empty();
        }
        held--;
        return Optional.of(next);
    }

    /**
     * {@code p}, the oldest entry of its key, went to the failed store with {@code outcome}: the
     * entries of its key held now, which follow it there (the dispatcher moves each), and the mark
     * that makes those queued up to {@code newestSeq} follow it when they are read.
     */
    List<PendingEntry> failed(PendingEntry p, long newestSeq, Outcome outcome) {
        Outcome follow = followers(outcome);
        if (marks != null) {
            try {
                marks.add(p.orderKey(), new FailureMarks.Mark(newestSeq, follow.detail()));
            } catch (IOException e) {
                log.error("order failures file not written: after a restart, events of the object queued before the"
                    + " failure may be stored ahead of it error={}", e.toString());
            }
        }
        consume(p);
        failedUpTo.put(p.orderKey(), new Failed(newestSeq, follow));
        List<PendingEntry> followers = new ArrayList<>();
        for (PendingEntry f : open.removeAll(keyHash(p), p.orderKey())) {
            if (f != p) {
                f.follows(follow);
                consume(f);
                followers.add(f);
                held--;
            }
        }
        return followers;
    }

    /**
     * The {@code Jetsink-Sequence} of {@code p}, the first unsettled entry of its object: one past
     * the object's last settled one, the same on every attempt; 0 when messages carry none.
     */
    long sequence(PendingEntry p) {
        if (sequences == null || !sequences.usable()) {
            return 0;
        }
        if (p.keySequence() == 0) {
            p.keyPlace(sequences.place(keyHash(p)));
            KeySequences.Last last = sequences.last(p.keyPlace(), keyHash(p));
            boolean repeat = repeats(p, last);
            p.keySequence(repeat ? last.number() : last.number() + 1, repeat);
        }
        return p.keySequence();
    }

    /**
     * Whether {@code p} is the object's last settled event again, not a new one: that entry read
     * again after a restart lost its resolution, or a second entry of the same event (a sender's
     * re-send of a body jetsink had taken, same msg id). Its publish is a duplicate of the stored
     * copy, which has the number.
     */
    private static boolean repeats(PendingEntry p, KeySequences.Last last) {
        return last.number() > 0 && (p.seq() <= last.queueSeq() || msgIdHash(p) == last.msgIdHash());
    }

    /**
     * {@code p} settled (stored, or in the failed store): its number is its object's last. The
     * object's last settled event read when {@code p} got its number is still its last: only the
     * first unsettled entry of an object gets a number and settles.
     */
    private void consume(PendingEntry p) {
        if (sequences == null) {
            return;
        }
        // a number given out before the table broke is still kept (in its journal)
        long number = sequences.usable() ? sequence(p) : p.keySequence();
        if (number > 0 && !p.keyRepeat()) {
            sequences.settled(p.keyPlace(), keyHash(p), number, p.seq(), msgIdHash(p));
        }
    }

    /** The hash {@link KeySequences} keeps {@code p}'s object by, worked out once. */
    private static long keyHash(PendingEntry p) {
        if (p.keyHash() == 0) {
            p.keyHash(KeySequences.hash(p.orderKey()));
        }
        return p.keyHash();
    }

    /** The hash {@link KeySequences} keeps {@code p}'s msg id by, worked out once. */
    private static long msgIdHash(PendingEntry p) {
        if (p.msgIdHash() == 0) {
            p.msgIdHash(KeySequences.msgIdHash(p.entry().msgId()));
        }
        return p.msgIdHash();
    }

    /** Forces the objects' sequences to disk (before resolutions become durable; the dispatcher stops). */
    void close() {
        if (sequences != null) {
            try {
                sequences.force();
            } catch (UncheckedIOException e) {
                log.error("order sequences not forced to disk: {}", e.getMessage());
            }
        }
    }

    /** What the entries get that follow an entry which went to the failed store with {@code failed}. */
    private static Outcome followers(Outcome failed) {
        return new Outcome(Outcome.Family.PERMANENT, Outcome.Cause.FOLLOWS_FAILED_EVENT,
            Outcome.Cause.FOLLOWS_FAILED_EVENT.label() + " (" + failed.detail() + ")", OptionalInt.empty(), OptionalInt.empty());
    }

    private record Failed(long upTo, Outcome outcome) {
    }

    /** True when no more entries may be held: the dispatcher reads no further for now. */
    boolean full() {
        return held >= MAX_HELD;
    }

    /** Entries held back now. */
    int held() {
        return held;
    }
}
