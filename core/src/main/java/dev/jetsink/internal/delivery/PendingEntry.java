package dev.jetsink.internal.delivery;

import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.lifecycle.Outcome;
import java.time.Instant;

/** A live queue entry the dispatcher is working on: the entry and its retry state. */
final class PendingEntry {

    private final QueuedEntry entry;
    private final RetryState retry;
    private Instant notBefore = Instant.MIN;
    private long attemptId;
    private String orderKey;
    private Outcome follows;
    private long keySequence;
    private boolean keyRepeat;
    private long keyHash;
    private long keyPlace;
    private long msgIdHash;
    /** The next entry of its key that {@link KeyOrder} holds behind this one; null when none. */
    private PendingEntry nextOfKey;
    /** On the oldest entry of a key in {@link KeyOrder}: the newest, where the next one is linked. */
    private PendingEntry lastOfKey;

    PendingEntry(QueuedEntry entry, RetryState retry) {
        this.entry = entry;
        this.retry = retry;
    }

    QueuedEntry entry() {
        return entry;
    }

    long seq() {
        return entry.seq();
    }

    RetryState retry() {
        return retry;
    }

    Instant notBefore() {
        return notBefore;
    }

    void notBefore(Instant at) {
        this.notBefore = at;
    }

    long attemptId() {
        return attemptId;
    }

    void attemptId(long id) {
        this.attemptId = id;
    }

    /** The key an ordered target holds this entry under ({@link KeyOrder}); null until it took it in. */
    String orderKey() {
        return orderKey;
    }

    void orderKey(String key) {
        this.orderKey = key;
    }

    /** What this entry gets in the failed store, which it follows an older entry of its key to; else null. */
    Outcome follows() {
        return follows;
    }

    void follows(Outcome outcome) {
        this.follows = outcome;
    }

    /** Its {@code Jetsink-Sequence} once an ordered target gave it one; else 0. */
    long keySequence() {
        return keySequence;
    }

    /**
     * Gives it its {@code Jetsink-Sequence}; {@code repeat} when it is its object's last settled event
     * again (its number is already the object's last).
     */
    void keySequence(long sequence, boolean repeat) {
        this.keySequence = sequence;
        this.keyRepeat = repeat;
    }

    /** Whether its number repeats its object's last settled one ({@link #keySequence(long, boolean)}). */
    boolean keyRepeat() {
        return keyRepeat;
    }

    /** The hash its object's sequence is kept by ({@link KeySequences#hash}); 0 until worked out. */
    long keyHash() {
        return keyHash;
    }

    void keyHash(long hash) {
        this.keyHash = hash;
    }

    /** Where its object's slot was found in {@link KeySequences} ({@link KeySequences#place}); 0 until then. */
    long keyPlace() {
        return keyPlace;
    }

    void keyPlace(long place) {
        this.keyPlace = place;
    }

    /** The hash {@link KeySequences} keeps its msg id by ({@link KeySequences#msgIdHash}); 0 until worked out. */
    long msgIdHash() {
        return msgIdHash;
    }

    void msgIdHash(long hash) {
        this.msgIdHash = hash;
    }

    /** The entry of its key held behind this one in {@link KeyOrder}'s chain; null when none. */
    PendingEntry nextOfKey() {
        return nextOfKey;
    }

    void nextOfKey(PendingEntry next) {
        this.nextOfKey = next;
    }

    /** On the first entry of a chain: the chain's newest entry. */
    PendingEntry lastOfKey() {
        return lastOfKey;
    }

    void lastOfKey(PendingEntry last) {
        this.lastOfKey = last;
    }
}
