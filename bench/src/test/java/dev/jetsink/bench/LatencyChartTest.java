package dev.jetsink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyChartTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachLatencySectionWithAHistogramIsDrawnWithItsBucketsAndPercentiles(@TempDir Path dir) throws Exception {
        var root = JSON.createObjectNode();
        var latency = root.putObject("latency");
        latency.put("offered_eps", 10_000);
        latency.put("replicas", 1);
        latency.put("rounds", 3);
        latency.put("events_per_round", 200_000);
        latency.set("p50_ms", JSON.valueToTree(Map.of("min", 2.1, "median", 2.3, "max", 2.5)));
        latency.set("p99_ms", JSON.valueToTree(Map.of("min", 20.0, "median", 31.0, "max", 40.0)));
        latency.set("disk_fsync_p99_ms", JSON.valueToTree(Map.of("min", 0.3, "median", 0.33, "max", 0.4)));
        latency.set("cpu_pressure_pct", JSON.valueToTree(Map.of("min", 70, "median", 78, "max", 80)));
        List<Map<String, Object>> buckets = new java.util.ArrayList<>();
        for (int b = 0; b < 56; b++) {
            // as LatencyBench writes it: every bucket, the last one open-ended
            long count = b == 16 ? 150_000 : b == 32 ? 440 : b == 20 ? 9_000 : 0;
            buckets.add(Map.of("le_ms", b == 55 ? "+Inf" : (Object) LatencyBench.bound(b), "count", count));
        }
        latency.set("histogram", JSON.valueToTree(buckets));
        root.putObject("drain").put("rounds", 3); // a section without a histogram is left out
        Path results = dir.resolve("latest.json");
        Path svg = dir.resolve("latency.svg");
        JSON.writeValue(results.toFile(), root);

        LatencyChart.main(new String[] {results.toString(), svg.toString()});

        String drawn = Files.readString(svg);
        assertThat(drawn).startsWith("<svg").contains("request to stored, 10,000 events/s, R1, 3 rounds of 200,000 events:"
            + " p50 2.3 ms, p99 31.0 ms (disk fsync p99 0.33 ms, CPU pressure 78 %)");
        assertThat(drawn).contains("&#8804; 2.0 ms: 150,000").contains("&#8804; 4.0 ms: 9,000")
            .contains("&#8804; 32.0 ms: 440");
        assertThat(drawn.split("<rect x=", -1)).as("one bar per non-empty bucket").hasSize(4);
        // p50 (2.3 ms) is marked in the bucket up to 2.38 ms, p99 (31 ms) in the one up to 32 ms
        assertThat(drawn).containsPattern("<line x1=\"(\\d+)\"[^>]*stroke=\"#c53030\"[^>]*/>\\s*<text[^>]*>p50</text>");
        assertThat(drawn).contains(">p99</text>");
    }

    @Test
    void latencyBucketsDoubleEveryFourAndHoldTheirUpperBound() {
        assertThat(LatencyBench.bound(0)).isEqualTo(0.125);
        assertThat(LatencyBench.bound(4)).isEqualTo(0.25);
        assertThat(LatencyBench.bound(40)).isEqualTo(128.0);
        assertThat(LatencyBench.bucket(125)).isZero();
        assertThat(LatencyBench.bucket(126)).isEqualTo(1);
        assertThat(LatencyBench.bucket(2_000)).isEqualTo(16);
        assertThat(LatencyBench.bucket(10_000_000)).as("anything slower lands in the last").isEqualTo(55);
    }
}
