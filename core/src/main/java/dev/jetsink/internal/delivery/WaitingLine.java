package dev.jetsink.internal.delivery;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * The order in which a dispatcher offers entries for publishing: oldest first, with entries that
 * came back from a failed attempt slotted in by their sequence, and entries that exhausted a retry
 * cycle placed behind everything that was waiting when they exhausted (DESIGN.md "Delivery").
 *
 * <p>Entries not yet fetched from the queue are read page by page, so a large backlog is never
 * held on the heap; only entries the dispatcher has touched are tracked here.
 *
 * @param <E> the dispatcher's per-entry state
 */
final class WaitingLine<E> {

    /** Where an entry stands in the line: by {@code position}, then by {@code tiebreak}. */
    private record Slot<E>(long position, long tiebreak, E entry) {
    }

    private final PriorityQueue<Slot<E>> returned =
        new PriorityQueue<>(Comparator.<Slot<E>>comparingLong(Slot::position).thenComparingLong(Slot::tiebreak));
    private final ArrayDeque<E> fetched = new ArrayDeque<>();
    private final java.util.function.ToLongFunction<E> seqOf;
    private final Pager<E> pager;
    private final int pageSize;
    private long cursor;
    private long tiebreaks;

    /** Reads up to {@code max} live entries with a sequence above {@code afterSeq}, oldest first. */
    interface Pager<E> {
        List<E> page(long afterSeq, int max);
    }

    WaitingLine(Pager<E> pager, java.util.function.ToLongFunction<E> seqOf, int pageSize, long startAfterSeq) {
        this.pager = pager;
        this.seqOf = seqOf;
        this.pageSize = pageSize;
        this.cursor = startAfterSeq;
    }

    /** The next entry to offer, removed from the line, or empty when nothing waits. */
    Optional<E> poll() {
        refillIfEmpty();
        Slot<E> head = returned.peek();
        E next = fetched.peek();
        if (head == null && next == null) {
            return Optional.empty();
        }
        if (next == null || (head != null && head.position() < seqOf.applyAsLong(next))) {
            return Optional.of(returned.poll().entry());
        }
        return Optional.of(fetched.poll());
    }

    /** True when an entry is waiting (reads a page from the queue if needed). */
    boolean hasNext() {
        refillIfEmpty();
        return !returned.isEmpty() || !fetched.isEmpty();
    }

    /** Puts an entry back at its own place in queue order (a failed attempt, fresh cycle). */
    void putBack(E entry) {
        returned.add(new Slot<>(seqOf.applyAsLong(entry), tiebreaks++, entry));
    }

    /**
     * Puts an entry behind every entry waiting now: behind the queue's newest entry as of
     * {@code newestSeq} and behind earlier entries sent to the back.
     */
    void sendToBack(E entry, long newestSeq) {
        returned.add(new Slot<>(Math.max(newestSeq, seqOf.applyAsLong(entry)) , tiebreaks++ + (1L << 40), entry));
    }

    private void refillIfEmpty() {
        if (!fetched.isEmpty()) {
            return;
        }
        List<E> page = pager.page(cursor, pageSize);
        for (E e : page) {
            fetched.add(e);
            cursor = Math.max(cursor, seqOf.applyAsLong(e));
        }
    }
}
