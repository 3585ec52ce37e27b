package dev.jetsink.internal.queue;

import dev.jetsink.internal.event.EventMetadata;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The record attributes at the codec level: for every combination (none, each alone,
 * all together, at their size limits, multi-byte text) the size computed before writing is the
 * size written, the CRC covers them, and decoding gives back exactly what was written.
 */
class RecordAttributesTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void everyCombinationIsSizedWrittenAndReadBackExactly() {
        List<Optional<String>> subjects = List.of(Optional.empty(), Optional.of("a.b"),
            Optional.of("caf\u00e9.\u732b.\uD83D\uDE00"), Optional.of("s".repeat(EntryAttributes.MAX_SUBJECT_BYTES)));
        List<Optional<String>> states = List.of(Optional.empty(), Optional.of("k=v"),
            Optional.of("t".repeat(EntryAttributes.MAX_TRACE_BYTES)));
        int checked = 0;
        for (int replays : new int[] {0, 1, Integer.MAX_VALUE}) {
            for (Optional<String> subject : subjects) {
                for (boolean traced : new boolean[] {false, true}) {
                    for (Optional<String> state : states) {
                        EntryAttributes a = EntryAttributes.replays(replays).withSubject(subject)
                            .withTrace(traced ? Optional.of(PARENT) : Optional.empty(), state);
                        roundTrip(a);
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isEqualTo(72);
    }

    private static void roundTrip(EntryAttributes a) {
        EventMetadata m = meta("obj");
        byte[] body = payload("obj");
        String id = "id-" + a.hashCode();
        int size = RecordCodec.recordSize(id, m, body, a);
        ByteBuffer out = ByteBuffer.allocate(size + 16);
        RecordCodec.encode(out, 7, id, 1234, m, body, a);
        assertThat(out.position()).as("recordSize for %s", a).isEqualTo(size);
        ByteBuffer record = ByteBuffer.wrap(out.array(), 0, size).slice();
        assertThat(RecordCodec.validBodyLength(record, 0)).isEqualTo(size - RecordCodec.RECORD_PREFIX_BYTES);
        RecordCodec.Decoded d = RecordCodec.tryDecode(record).orElseThrow();
        assertThat(d.attributes()).isEqualTo(a);
        assertThat(d.msgId()).isEqualTo(id);
        assertThat(d.payloadLength()).isEqualTo(body.length);
        // one flipped byte just before the payload length (the attributes, when there are any) fails the checksum
        ByteBuffer damaged = ByteBuffer.allocate(size);
        damaged.put(record.duplicate()).flip();
        int at = d.payloadOffset() - 5;
        damaged.put(at, (byte) (damaged.get(at) ^ 0x01));
        assertThat(RecordCodec.validBodyLength(damaged, 0)).isEqualTo(-1);
    }
}
