package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/OPERATIONS.md and docs/grafana-dashboard.json in step with the code: every metric
 * (DESIGN.md "Metrics") is on the dashboard and in OPERATIONS.md, and every log line OPERATIONS.md
 * tells operators to look for is still printed by jetsink-core.
 */
class OperatorDocsTest {
    // Surefire runs in the module directory.
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final List<String> METRICS = List.of(
        "rustfs_notification_target_queue_length", "rustfs_audit_target_queue_length",
        "rustfs_notification_failed_messages", "rustfs_audit_failed_messages",
        "rustfs_notification_failed_store_length", "rustfs_audit_failed_store_length",
        "rustfs_notification_total_messages", "rustfs_audit_total_messages",
        "jetsink_publish_seconds", "jetsink_publish_attempts_total", "jetsink_stream_verdict",
        "jetsink_queue_bytes", "jetsink_queue_corrupt_records_total", "jetsink_queue_sidecar_rebuilt_total",
        "jetsink_queue_torn_tail_total", "jetsink_failed_replayed_total",
        "jetsink_target_state", "jetsink_queue_oldest_age_seconds", "jetsink_last_ack_timestamp_seconds",
        "jetsink_ingest_last_event_timestamp_seconds", "jetsink_ingest_requests_total",
        "jetsink_retry_exhaustions_total",
        "jetsink_duplicate_acks_total",
        "jetsink_queue_limit_entries", "jetsink_queue_fill_ratio", "jetsink_stream_duplicate_window_seconds",
        "jetsink_http_request_duration_seconds", "jetsink_http_tls_certificate_expiry_seconds",
        "jetsink_nats_tls_certificate_expiry_seconds",
        "jvm_memory_used_bytes", "jvm_gc_pause_seconds", "jvm_threads_live_threads", "process_files_open_files");

    /** Log messages OPERATIONS.md quotes, exactly as the code's format strings begin. */
    private static final List<String> LOG_LINES = List.of(
        "target starting target=",
        "JetStream stream validation succeeded target=",
        "JetStream stream validation failed target=",
        "JetStream stream advice target=",
        "target init failed, it takes no events and retries in",
        "target init succeeded on retry",
        "NATS connection failed at init, events queue until it connects target=",
        "retry budget exhausted, entry stays queued and retries target=",
        "the step before forcing resolutions failed; they are not forced until it succeeds",
        "order sequences table could not be rewritten",
        "delivery paused, probing with one entry target=",
        "delivery resumed target=",
        "JetStream stream verdict reset target=",
        "JetStream publish acknowledged by an unexpected stream target=",
        "queue full, event rejected at ingest target=",
        "event failed terminally, stored in the failed store:",
        "failed store at its bound, oldest record deleted:",
        "failed-events store write failed, entry stays queued",
        "queue record unreadable, entry stays queued",
        "target stalled: entries queued and no publish ack for",
        "target stall ended target=");

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void dashboardIsValidJsonWithAQueryForEveryMetric() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("docs/grafana-dashboard.json").toFile());

        List<String> exprs = new ArrayList<>();
        dashboard.get("panels").forEach(p -> {
            if (p.has("targets")) {
                p.get("targets").forEach(t -> exprs.add(t.get("expr").asText()));
            }
        });

        assertThat(dashboard.get("title").asText()).isEqualTo("jetsink");
        String all = String.join("\n", exprs);
        for (String metric : METRICS) {
            assertThat(all).as("dashboard query for " + metric).contains(metric);
        }
        assertThat(all).contains("histogram_quantile(0.5,").contains("histogram_quantile(0.99,")
            .contains("jetsink_publish_seconds_bucket");
    }

    @Test
    void everyDashboardQueryIsScopedToTheChosenInstance() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("docs/grafana-dashboard.json").toFile());
        List<String> variables = new ArrayList<>();
        dashboard.get("templating").get("list").forEach(v -> variables.add(v.get("name").asText()));
        assertThat(variables).contains("instance");

        java.util.regex.Pattern series = java.util.regex.Pattern.compile(
            "\\b(?:rustfs|jetsink|jvm|process|system)_[a-zA-Z0-9_]*(\\{[^}]*})?");
        List<String> unscoped = new ArrayList<>();
        dashboard.get("panels").forEach(p -> {
            if (p.has("targets")) {
                p.get("targets").forEach(t -> {
                    java.util.regex.Matcher m = series.matcher(t.get("expr").asText());
                    while (m.find()) {
                        if (m.group(1) == null || !m.group(1).contains("instance=~\"$instance\"")) {
                            unscoped.add(p.get("title").asText() + ": " + m.group());
                        }
                    }
                });
            }
        });
        assertThat(unscoped).as("series read without the $instance matcher").isEmpty();
    }

    @Test
    void operationsGuideNamesEveryMetric() {
        String guide = read(ROOT.resolve("docs/OPERATIONS.md"));
        for (String metric : METRICS) {
            assertThat(guide.contains(metric)).as("OPERATIONS.md names " + metric).isTrue();
        }
    }

    @Test
    void everyLogLineTheGuideQuotesIsPrintedByTheCode() throws IOException {
        String guide = read(ROOT.resolve("docs/OPERATIONS.md"));
        StringBuilder code = new StringBuilder();
        try (Stream<Path> files = Files.walk(ROOT.resolve("core/src/main/java"))) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> code.append(read(f)));
        }
        for (String line : LOG_LINES) {
            assertThat(code.indexOf(line)).as("core prints: " + line).isNotNegative();
            assertThat(guide.contains(line)).as("OPERATIONS.md quotes: " + line).isTrue();
        }
    }
}
