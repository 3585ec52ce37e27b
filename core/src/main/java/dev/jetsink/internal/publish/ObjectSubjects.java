package dev.jetsink.internal.publish;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.QueuedEntry;
import java.util.Optional;

/**
 * Where an ordered target's subjects name objects ({@code ORDER=key} with a notify
 * {@code SUBJECT} like {@code s3.{bucket}.{key_prefix:4}}; DESIGN.md "Order per object"), its
 * publishes carry {@value #HEADER}: the stream sequence of the last message on the object's
 * subject, as this process last saw it. The stream then stores a publish only right after the
 * object's last message. What that adds to the order of one-entry-per-object-in-flight: a
 * re-publish of an event whose first copy was stored but not acknowledged (an ack lost, then an
 * outage longer than the stream's duplicate window) is refused instead of stored a second time,
 * and the refusal is resolved by reading the subject's last message ({@link StoredCopies#lastOn}).
 *
 * <p>The last sequences are a cache of {@value #SLOTS} subjects, one per slot: an object it does
 * not know (new, forgotten, or not seen since the process started) is sent with 0, "no message
 * yet", and an object that has messages then costs one refusal and one read, once.
 */
final class ObjectSubjects {
    /** The header; nats-server refuses a publish whose value is not the subject's last sequence (10071). */
    static final String HEADER = "Nats-Expected-Last-Subject-Sequence";
    private static final int SLOTS = 1 << 18;

    private final EntrySubjects subjects;
    /** Per slot: the subject's hash (0 for an empty slot) and the last stream sequence seen on it. */
    private final long[] hashes = new long[SLOTS];
    private final long[] lasts = new long[SLOTS];

    private ObjectSubjects(EntrySubjects subjects) {
        this.subjects = subjects;
    }

    /** For an ordered target whose subject template can name objects; empty otherwise. */
    static Optional<ObjectSubjects> of(boolean ordered, EntrySubjects subjects) {
        return ordered && subjects.template().namesObjects() ? Optional.of(new ObjectSubjects(subjects)) : Optional.empty();
    }

    /**
     * Whether {@code to}, the subject {@code e} is published on, is its object's alone: a notify
     * entry whose key the template names whole, and whose stored subject is the template's (an
     * entry queued under another {@code SUBJECT} keeps that one).
     */
    boolean guards(QueuedEntry e, String to) {
        EventMetadata m = e.metadata();
        return m.kind() == TargetKind.NOTIFY && subjects.template().namesObject(m.bucket(), m.object())
            && to.equals(subjects.template().resolve(m.bucket(), m.object(), m.eventName(), subjects.targetId()));
    }

    /** The last stream sequence seen on {@code subject}; 0 when not known. */
    synchronized long expected(String subject) {
        long h = hash(subject);
        int i = slot(h);
        return hashes[i] == h ? lasts[i] : 0;
    }

    /**
     * {@code streamSeq} is on {@code subject} now: a publish's ack (a duplicate's names an older
     * copy, so the larger one stays) or a read of the subject's last message ({@code exact}).
     */
    synchronized void seen(String subject, long streamSeq, boolean exact) {
        long h = hash(subject);
        int i = slot(h);
        if (hashes[i] != h || exact || streamSeq > lasts[i]) {
            hashes[i] = h;
            lasts[i] = streamSeq;
        }
    }

    private static int slot(long h) {
        return (int) (h ^ h >>> 32) & SLOTS - 1;
    }

    /** FNV-1a over the subject's characters, never 0; a collision costs a refusal and a read, never a wrong store. */
    private static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h == 0 ? 1 : h;
    }
}
