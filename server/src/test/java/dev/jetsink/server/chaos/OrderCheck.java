package dev.jetsink.server.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-object order in the stream (issue #42, {@code ORDER=key}). Every sender is serial: it sends
 * request {@code seq + 1} only once {@code seq} was answered 2xx, and a batch's events are taken in
 * body order, so within a sender the order jetsink accepted its events in is (request seq, index in
 * the batch). A sender's request {@code seq} is about its object {@code seq % KEYS}
 * ({@link SenderForm#objectKey}). Walking the stream by sequence, each object's stored events must
 * therefore come in strictly increasing (seq, index): an event older than one stored before it on
 * its object is an order break. A second copy of the newest event is no break (the checker counts
 * it as a duplicate); events that went to a failed store are simply not in the stream. The
 * {@code Jetsink-Sequence} of an object's stored events must go 1, 2, 3, ...: a number that is
 * not one past the object's last is a numbering gap (events in a failed store make real ones).
 */
final class OrderCheck {

    private static final Pattern PARTS = Pattern.compile("cx([0-9]+|" + SinkLoad.SENDER + ")n([0-9]+)(?:b([0-9]+))?x");
    /** Breaks kept with their details for the report. */
    static final int SHOWN = 5;

    private OrderCheck() {
    }

    /** Where an event stands: its sender, request and index in the request, and so its object. */
    record Place(String sender, long seq, int index) {

        private static final Comparator<Place> ACCEPTANCE =
            Comparator.comparingLong(Place::seq).thenComparingInt(Place::index);

        /** The place a token names, or empty when it is no event token. */
        static Optional<Place> of(String token) {
            Matcher m = PARTS.matcher(token);
            if (!m.matches()) {
                return Optional.empty();
            }
            return Optional.of(new Place(m.group(1), Long.parseLong(m.group(2)),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3))));
        }

        /** The object: the sender and its key number, as in {@code chaos/s<sender>-k<n>.jpg}. */
        String key() {
            return "s" + sender + "-k" + Math.floorMod(seq, SenderForm.KEYS);
        }

        /** Whether this event was accepted before {@code other} of the same sender. */
        boolean before(Place other) {
            return ACCEPTANCE.compare(this, other) < 0;
        }
    }

    /** An event of the JetStream path as the stream holds it, with its {@code Jetsink-Sequence} (0: none). */
    record Stored(long streamSeq, String token, long number) {

        Stored(long streamSeq, String token) {
            this(streamSeq, token, 0);
        }
    }

    /** {@code token} (stream {@code streamSeq}) was stored after the newer {@code newerToken} of its object. */
    record Break(String key, long streamSeq, String token, long newerStreamSeq, String newerToken) {

        String describe() {
            return "order break on " + key + ": stream #" + streamSeq + " " + token + " stored after #" + newerStreamSeq
                + " " + newerToken;
        }
    }

    /**
     * The verdict.
     *
     * @param keys objects with at least one stored event
     * @param events stored events placed on their object
     * @param breaks stored events older than one stored before them on their object
     * @param first the first {@value #SHOWN} breaks, in stream order
     * @param numbered stored events with a {@code Jetsink-Sequence}
     * @param numberGaps numbered events whose number is past their object's last + 1 (numbers skipped)
     * @param numberRepeats numbered events whose number is not past their object's last: a consumer
     *     would skip them as redeliveries, though each is an event of its own
     * @param gaps the first {@value #SHOWN} of both, described
     */
    record Verdict(int keys, int events, int breaks, List<Break> first, int numbered, int numberGaps, int numberRepeats,
                   List<String> gaps) {

        /** One line for the report. */
        String describe() {
            return "order: " + events + " stored events on " + keys + " objects, " + breaks
                + " stored after a newer event of their object; " + numbered + " numbered, " + numberGaps
                + " past their object's last number + 1, " + numberRepeats + " not past it";
        }
    }

    /** Checks {@code stored}, in any order: it is walked by stream sequence. */
    static Verdict of(List<Stored> stored) {
        List<Stored> walk = new ArrayList<>(stored);
        walk.sort(Comparator.comparingLong(Stored::streamSeq));
        Map<String, Stored> newest = new HashMap<>();
        Map<String, Place> newestPlace = new HashMap<>();
        List<Break> first = new ArrayList<>();
        Map<String, Long> lastNumber = new HashMap<>();
        List<String> gaps = new ArrayList<>();
        int events = 0;
        int breaks = 0;
        int numbered = 0;
        int numberGaps = 0;
        int numberRepeats = 0;
        for (Stored s : walk) {
            Optional<Place> place = Place.of(s.token());
            if (place.isEmpty()) {
                continue;
            }
            events++;
            Place p = place.get();
            String key = p.key();
            Place top = newestPlace.get(key);
            if (top == null || top.before(p)) {
                newest.put(key, s);
                newestPlace.put(key, p);
                if (s.number() > 0) {
                    numbered++;
                    long expected = lastNumber.getOrDefault(key, 0L) + 1;
                    if (s.number() > expected) {
                        numberGaps++;
                    } else if (s.number() < expected) {
                        numberRepeats++;
                    }
                    if (s.number() != expected && gaps.size() < SHOWN) {
                        gaps.add("Jetsink-Sequence on " + key + ": stream #" + s.streamSeq() + " " + s.token() + " has "
                            + s.number() + ", expected " + expected);
                    }
                    lastNumber.put(key, s.number());
                }
            } else if (p.before(top)) {
                breaks++;
                if (first.size() < SHOWN) {
                    Stored n = newest.get(key);
                    first.add(new Break(key, s.streamSeq(), s.token(), n.streamSeq(), n.token()));
                }
            }
        }
        return new Verdict(newest.size(), events, breaks, List.copyOf(first), numbered, numberGaps, numberRepeats,
            List.copyOf(gaps));
    }
}
