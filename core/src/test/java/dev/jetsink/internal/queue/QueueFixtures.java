package dev.jetsink.internal.queue;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Shared builders for the queue tests. */
final class QueueFixtures {
    private QueueFixtures() {
    }

    static EventMetadata meta(String object) {
        return new EventMetadata(TargetKind.NOTIFY, "photos", object, "s3:ObjectCreated:Put", "image/jpeg");
    }

    static byte[] payload(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static QueueOptions small(int segmentRecords) {
        return QueueOptions.withLimit(1_000_000).withSegmentMaxRecords(segmentRecords);
    }

    static QueuedEntry append(QueueStore q, String text) {
        try {
            return q.append(meta(text), payload(text)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("append failed: " + e, e);
        }
    }

    static List<QueuedEntry> all(QueueStore q) {
        return q.live(0, Integer.MAX_VALUE);
    }

    static List<Path> logs(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("segments"))) {
            return s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }

    /** A clock the test moves by hand. */
    static final class MovableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
