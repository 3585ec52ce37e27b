package dev.jetsink.server.ingest;

import java.time.Duration;
import java.util.Optional;

/** What an ingest request came to: accepted (every event durably queued) or rejected with a status. */
public sealed interface IngestResult {

    /** Every event is durably queued on every addressed target. */
    record Accepted(int events) implements IngestResult {
    }

    /** Nothing was queued (or, after an I/O error, possibly part of it — the sender retries). */
    record Rejected(int status, String error, Optional<Duration> retryAfter) implements IngestResult {
        static Rejected of(int status, String error) {
            return new Rejected(status, error, Optional.empty());
        }

        static Rejected retryLater(String error, Duration after) {
            return new Rejected(503, error, Optional.of(after));
        }
    }
}
