package dev.jetsink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode spread(double... rounds) {
        List<Double> values = java.util.Arrays.stream(rounds).boxed().toList();
        return JSON.valueToTree(Spread.of(values, 2));
    }

    @Test
    void aFigureMeasuredInRoundsShowsItsMedianAndRangeAndPressure() {
        var root = JSON.createObjectNode();
        var drain = root.putObject("drain");
        drain.set("jetsink_eps", spread(30_000, 45_000, 40_000));
        drain.set("raw_eps", spread(38_000, 41_000, 39_000));
        drain.set("ratio_vs_raw", spread(0.79, 1.10, 1.03));
        drain.set("cpu_pressure_pct", spread(12, 30, 20));
        drain.put("ratio_vs_baseline", 8.5);
        drain.put("events", 100_000);
        drain.put("event_bytes", 1024);
        drain.put("rounds", 3);

        String md = BenchReport.tables(root);

        assertThat(md).contains("**Drain** (`bench/run drain`: 100,000 queued events of 1024 B to JetStream, 3 rounds");
        assertThat(md).contains("| jetsink events/s | 40,000 | 30,000 – 45,000 | 12 – 30 |  |");
        assertThat(md).contains("| jetsink ÷ raw publish | 1.03 | 0.79 – 1.10 |  | ≥ 0.9 |");
        assertThat(md).contains("| jetsink ÷ file-per-event peer | 8.5 | one run |  |  |");
    }

    @Test
    void theQueueLatencyAndRecoverySectionsAreGeneratedWhenPresent() {
        var root = JSON.createObjectNode();
        var queue = root.putObject("queue");
        queue.put("rounds", 3);
        queue.put("seconds", 3);
        queue.put("event_bytes", 1024);
        var byProducers = queue.putObject("by_producers");
        for (String p : List.of("1", "8", "64")) {
            var at = byProducers.putObject(p);
            at.set("jetsink_eps", spread(1000, 2000, 3000));
            at.set("baseline_eps", spread(100, 200, 300));
            at.set("ratio", spread(10, 10, 10));
        }
        var latency = root.putObject("latency");
        latency.put("rounds", 3);
        latency.put("seconds", 20);
        latency.put("offered_eps", 10_000);
        latency.set("p50_ms", spread(2.5, 2.75, 3.5));
        latency.set("p99_ms", spread(8, 9, 30));
        latency.set("disk_fsync_p99_ms", spread(0.3, 0.4, 0.5));
        root.set("recovery", JSON.valueToTree(Map.of("rounds", 3, "entries", 180_000, "event_bytes", 1024,
            "jvm_options", "-Xmx96m", "open_ms", Spread.of(List.of(300.0, 310.0, 350.0), 0))));

        String md = BenchReport.tables(root);

        assertThat(md).contains("| jetsink events/s, 64 producers | 2,000 | 1,000 – 3,000 |");
        assertThat(md).contains("| p50 (ms) | 2.75 | 2.50 – 3.50 |");
        assertThat(md).contains("| p99 (ms) | 9.00 | 8.00 – 30.00 |  | ≤ 10 |");
        assertThat(md).contains("| open (ms) | 310 | 300 – 350 |");
        assertThat(md).contains("| jetsink events/s, 1 producer | 2,000 |");
        assertThat(md).as("a figure the file lacks gets no row").doesNotContain("peak RSS");
        assertThat(md).doesNotContain("**Drain**");
    }

    @Test
    void anR3SectionGetsItsOwnTableBesideR1() {
        var root = JSON.createObjectNode();
        for (String name : List.of("drain", "drain_r3")) {
            var drain = root.putObject(name);
            drain.set("jetsink_eps", spread(name.equals("drain") ? 40_000 : 20_000));
            drain.put("events", 1000);
            drain.put("rounds", 1);
        }

        String md = BenchReport.tables(root);

        assertThat(md).contains("**Drain** (`bench/run drain`:");
        assertThat(md).contains("**Drain, R3 stream on a local 3-node cluster** (`bench/run drain --replicas 3`:");
        assertThat(md).contains("| jetsink events/s | 20,000 |");
    }

    /** The figures BENCHMARKS.md and OPERATIONS.md section 17 show are latest.json's, as generated now. */
    @Test
    void theDocumentsShowTheFiguresLatestJsonHolds() throws IOException {
        Path top = Path.of("..").toAbsolutePath().normalize();
        JsonNode latest = JSON.readTree(top.resolve("bench/results/latest.json").toFile());
        String benchmarks = Files.readString(top.resolve("docs/BENCHMARKS.md"), StandardCharsets.UTF_8);
        String operations = Files.readString(top.resolve("docs/OPERATIONS.md"), StandardCharsets.UTF_8);
        assertThat(BenchReport.block(benchmarks, BenchReport.START, BenchReport.END))
            .as("BENCHMARKS.md's generated tables; run bench/run chart").isEqualTo(BenchReport.tables(latest));
        assertThat(BenchReport.block(operations, SizingReport.START, SizingReport.END))
            .as("OPERATIONS.md's sizing table; run bench/run chart").isEqualTo(SizingReport.table(latest));
        for (Map.Entry<String, JsonNode> section : latest.properties()) {
            assertThat(BenchStamp.of(section.getValue())).as("date of section " + section.getKey()).isNotEqualTo("undated");
        }
    }

    @Test
    void aRunDatesTheSectionsItChangedAndLeavesTheOthersTheirDate() {
        ObjectNode before = JSON.createObjectNode();
        before.putObject("drain").put("jetsink_eps", 1).putObject("measured").put("date", "2026-12-01").put("nats_server", "2.9.10");
        before.putObject("ingest").put("jetsink_rps", 2).putObject("measured").put("date", "2026-12-01").put("nats_server", "2.9.10");
        ObjectNode now = before.deepCopy();
        ((ObjectNode) now.path("drain")).put("jetsink_eps", 3);
        now.putObject("latency").put("p50_ms", 4);

        assertThat(BenchStamp.stamp(now, before, "2026-12-07", "2.15.1")).isEqualTo(2);
        assertThat(BenchStamp.of(now.path("drain"))).isEqualTo("2026-12-07, nats-server 2.15.1");
        assertThat(BenchStamp.of(now.path("latency"))).isEqualTo("2026-12-07, nats-server 2.15.1");
        assertThat(BenchStamp.of(now.path("ingest"))).isEqualTo("2026-12-01, nats-server 2.9.10");
    }

    @Test
    void theSizingTableGivesEachRowItsSectionsDateAndWhatACoreCarries() {
        Map<String, Object> ingest = Map.of("jetsink_daemon_cpu_us_per_request", spread(100, 90, 110),
            "jetsink_rps", spread(10_000, 9_000, 11_000), "measured", Map.of("date", "2026-12-07", "nats_server", "2.15.1"));
        String md = SizingReport.table(JSON.valueToTree(Map.of("ingest", ingest)));
        assertThat(md).contains("| daemon CPU, one event per POST (1.3 KiB MinIO record, JetStream, fsync on) | 100.0 (90.0–110.0) µs"
            + " per request | 2026-12-07, nats-server 2.15.1 | about 10,000 requests/s per core of daemon CPU |");
        assertThat(md).contains("| one daemon on the 2 shared vCPUs, one event per POST, R1 | 10,000 (9,000–11,000) requests/s |"
            + " 2026-12-07, nats-server 2.15.1 |");
    }
}
