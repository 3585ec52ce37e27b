package dev.jetsink.internal.queue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

class QueueInspectorTest {
    @TempDir
    Path dir;

    @Test
    void inspectorShowsLiveEntriesAndIgnoresARecordStillBeingWrittenAtTheTail() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (int i = 0; i < 3; i++) {
                written.add(append(q, "e" + i));
            }
            q.resolve(written.get(0).seq());
        }
        Path log = logs(dir).get(0);
        long size = Files.size(log);
        // half of a record the daemon is writing right now
        byte[] record = new byte[60];
        System.arraycopy(Files.readAllBytes(log), RecordCodec.SEGMENT_HEADER_BYTES, record, 0, 60);
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.seek(size);
            f.write(record);
        }
        QueueInspector inspector = QueueInspector.of(dir);
        List<QueuedEntry> seen = new ArrayList<>();
        inspector.forEachLive(seen::add);
        assertThat(seen).containsExactly(written.get(1), written.get(2));
        QueueInspector.Stats stats = inspector.stats();
        assertThat(stats.live()).isEqualTo(2);
        assertThat(stats.corrupt()).isZero();
        assertThat(stats.oldest()).contains(written.get(1).queuedAt());
        assertThat(inspector.show(written.get(2).seq()).orElseThrow().payload()).isEqualTo(QueueFixtures.payload("e2"));
        assertThat(inspector.show(written.get(0).seq())).isEmpty();
        // read-only: the partial tail is still there for the owner's recovery to judge
        assertThat(Files.size(log)).isEqualTo(size + 60);
    }
}
