package dev.jetsink.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.SegmentedQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueSizingTest {
    @TempDir
    Path dir;

    /**
     * The overhead the sizing uses is what a real queue writes: 2 000 entries with a MinIO put's
     * names (bucket, decoded key, event name, content type) and a msg id, their segment bytes less
     * their payloads, per entry.
     */
    @Test
    void theOverheadPerEntryIsWhatARealQueueWritesForAMinioPut() throws IOException {
        int entries = 2_000;
        byte[] payload = new byte[1024];
        EventMetadata minioPut = new EventMetadata(TargetKind.NOTIFY, "photos", "2025/cat 1.jpg", "s3:ObjectCreated:Put", "image/jpeg");
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(entries))) {
            for (int i = 0; i < entries; i++) {
                q.append(minioPut, payload, Optional.of(UUID.randomUUID().toString())).join();
            }
        }
        long bytes;
        try (Stream<Path> files = Files.walk(dir)) {
            bytes = files.filter(f -> f.getFileName().toString().endsWith(".log")).mapToLong(f -> f.toFile().length()).sum();
        }
        double measured = (bytes - (double) entries * payload.length) / entries;
        assertThat(bytes).as("segment bytes").isPositive();
        System.out.printf("queue entry overhead measured: %.1f B%n", measured);
        assertThat((double) QueueSizing.ENTRY_OVERHEAD_BYTES).as("measured %.1f B per entry", measured).isBetween(measured - 4, measured + 4);
    }

    @Test
    void fiftyEventsPerSecondThroughAnHourNeedsOneHundredEightyThousandEntries() {
        assertThat(new QueueSizing(50, 3600).entries()).isEqualTo(180_000);
    }

    @Test
    void suggestedLimitAddsAQuarterOfHeadroom() {
        assertThat(new QueueSizing(50, 3600).suggestedLimit()).isEqualTo(225_000);
    }

    @Test
    void fractionalRatesRoundUpSoTheOutageStillFits() {
        QueueSizing q = new QueueSizing(0.5, 3);
        assertThat(q.entries()).isEqualTo(2);
        assertThat(q.suggestedLimit()).isEqualTo(3);
    }

    @Test
    void diskEstimateIsPayloadPlusEntryOverheadPerEntry() {
        // 100 entries (80 + 25 %) of 870 B payload and 130 B of record overhead
        assertThat(new QueueSizing(1, 80).diskBytes(870)).isEqualTo(100L * 1000);
    }

    @Test
    void rateAndOutageMustBePositive() {
        assertThatThrownBy(() -> new QueueSizing(0, 10)).hasMessageContaining("--peak-rate");
        assertThatThrownBy(() -> new QueueSizing(Double.NaN, 10)).hasMessageContaining("--peak-rate");
        assertThatThrownBy(() -> new QueueSizing(5, 0)).hasMessageContaining("--outage-secs");
    }
}
