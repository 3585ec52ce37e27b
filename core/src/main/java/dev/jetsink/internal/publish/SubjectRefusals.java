package dev.jetsink.internal.publish;

import java.util.concurrent.atomic.LongAdder;

/**
 * How the refusals of {@code Nats-Expected-Last-Subject-Sequence} were answered, for the metric
 * {@code jetsink_order_subject_refusals_total} (OPERATIONS.md section 11): the subject's last
 * message was the entry's own copy (stored before, its ack lost), another message (the object's
 * messages from before this process, or another publisher's: the entry was sent again after it),
 * or could not be read (sent again after the sequence the refusal named, unchecked).
 */
public final class SubjectRefusals {
    /** What the subject's last message turned out to be. */
    public enum Last {
        OWN_COPY("own_copy"), ANOTHER("another"), UNREAD("unread");

        private final String label;

        Last(String label) {
            this.label = label;
        }

        /** The metric's {@code last} tag. */
        public String label() {
            return label;
        }
    }

    private final LongAdder[] counts = {new LongAdder(), new LongAdder(), new LongAdder()};

    void add(Last last) {
        counts[last.ordinal()].increment();
    }

    /** The refusals answered this way since the target was opened. */
    public long count(Last last) {
        return counts[last.ordinal()].sum();
    }
}
