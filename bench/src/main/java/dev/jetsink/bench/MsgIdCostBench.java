package dev.jetsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.PayloadFormat;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.CanonicalJson;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.internal.event.MessageFormats;
import dev.jetsink.internal.event.MsgIds;
import dev.jetsink.internal.event.OrderKeys;
import dev.jetsink.internal.event.OutboundEvent;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The cost per event of content-derived msg ids: the whole ingest parse of a MinIO
 * webhook body (1.3 KiB, one record: tree, envelope, canonical digest, the target's msg id), and
 * the canonical digest and the msg id alone, so their share shows, and what a target's non-default
 * {@code FORMAT} adds (applied once per event, at enqueue); and the one streaming pass over a body
 * beside the tree path it replaced (a MinIO record, and a MinIO audit batch of 100 entries, per
 * event), alternately in each round. Single thread, after warm-up;
 * ns per event, CPU pressure beside it. Usage: {@code MsgIdCostBench --out RESULTS.json}.
 */
public final class MsgIdCostBench {

    private static final int WARMUP = 200_000;
    private static final int MEASURED = 500_000;

    private MsgIdCostBench() {
    }

    private static final int ROUNDS = 3;
    private static final int AUDIT_BATCH = 100;

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length >= 2 && args[0].equals("--out") ? args[1] : "bench/results/latest.json");
        byte[] body;
        try (InputStream in = MsgIdCostBench.class.getResourceAsStream("minio-notify-put.json")) {
            body = in.readAllBytes();
        }
        EventParser parser = EventParser.forKind(TargetKind.NOTIFY);
        EventParser audit = EventParser.forKind(TargetKind.AUDIT);
        byte[] batch;
        try (InputStream in = MsgIdCostBench.class.getResourceAsStream("minio-audit-entry.json")) {
            String entry = new ObjectMapper().readTree(in).toString();
            batch = (entry + "\n").repeat(AUDIT_BATCH).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        com.fasterxml.jackson.databind.JsonNode record = new ObjectMapper().readTree(body).get("Records").get(0);
        byte[] digest = CanonicalJson.sha256(record);
        OutboundEvent parsed = parser.parse(body).get(0);
        // the tree path's event carries no fields of the pass: its formats read the envelope back as a tree
        OutboundEvent treeParsed = parser.parseTree(body).get(0);
        OutboundEvent auditEvent = audit.parse(batch).get(0);
        PayloadFormat[] formats = {PayloadFormat.AWS, PayloadFormat.CLOUDEVENTS_BINARY, PayloadFormat.CLOUDEVENTS_STRUCTURED};
        long sink = 0;
        for (int i = 0; i < WARMUP; i++) {
            sink += run(parser, body) + CanonicalJson.sha256(record)[0]
                + MsgIds.content(TargetKind.NOTIFY, "_", digest).getLeastSignificantBits()
                + MessageFormats.apply(formats[i % formats.length], parsed).payload().length
                + OrderKeys.of(i % 2 == 0 ? parsed : auditEvent).length();
            if (i % AUDIT_BATCH == 0) {
                sink += parser.parseTree(body).size() + audit.parse(batch).size() + audit.parseTree(batch).size();
            }
        }
        Map<String, List<Double>> passes = new LinkedHashMap<>();
        Map<String, List<Double>> formatCosts = new LinkedHashMap<>();
        List<Double> wholes = new ArrayList<>();
        List<Double> canonicals = new ArrayList<>();
        List<Double> ids = new ArrayList<>();
        List<Double> shares = new ArrayList<>();
        List<Double> pressures = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            CpuPressure start = CpuPressure.sample();
            long t0 = System.nanoTime();
            for (int i = 0; i < MEASURED; i++) {
                sink += run(parser, body);
            }
            double whole = (System.nanoTime() - t0) / (double) MEASURED;
            long t1 = System.nanoTime();
            for (int i = 0; i < MEASURED; i++) {
                sink += CanonicalJson.sha256(record)[0];
            }
            double canonical = (System.nanoTime() - t1) / (double) MEASURED;
            long t2 = System.nanoTime();
            for (int i = 0; i < MEASURED; i++) {
                sink += MsgIds.content(TargetKind.NOTIFY, "_", digest).getLeastSignificantBits();
            }
            double id = (System.nanoTime() - t2) / (double) MEASURED;
            double share = (canonical + id) / whole;
            StringBuilder formatText = new StringBuilder();
            for (PayloadFormat f : formats) {
                // cut from the pass's envelope, then read back as a tree, alternated in each round
                for (OutboundEvent from : List.of(parsed, treeParsed)) {
                    long tf = System.nanoTime();
                    for (int i = 0; i < MEASURED; i++) {
                        sink += MessageFormats.apply(f, from).payload().length;
                    }
                    double cost = (System.nanoTime() - tf) / (double) MEASURED;
                    String way = from == parsed ? "" : "_tree";
                    formatCosts.computeIfAbsent("format_" + f.label().replace('-', '_') + way + "_ns",
                        k -> new ArrayList<>()).add(cost);
                    formatText.append(String.format(" %s%s +%.0f ns", f.label(), from == parsed ? "" : " (tree)", cost));
                }
            }
            for (OutboundEvent e : List.of(parsed, auditEvent)) {
                long to = System.nanoTime();
                for (int i = 0; i < MEASURED; i++) {
                    sink += OrderKeys.of(e).length();
                }
                double cost = (System.nanoTime() - to) / (double) MEASURED;
                formatCosts.computeIfAbsent("order_key_" + e.metadata().kind().label() + "_ns", k -> new ArrayList<>()).add(cost);
                formatText.append(String.format(" ORDER=key %s +%.0f ns", e.metadata().kind().label(), cost));
            }
            double[] pass = {
                perEvent(() -> parser.parse(body).size(), MEASURED, 1),
                perEvent(() -> parser.parseTree(body).size(), MEASURED, 1),
                perEvent(() -> audit.parse(batch).size(), MEASURED / AUDIT_BATCH, AUDIT_BATCH),
                perEvent(() -> audit.parseTree(batch).size(), MEASURED / AUDIT_BATCH, AUDIT_BATCH)};
            String[] passNames = {"notify_one_pass_ns", "notify_tree_ns", "audit_batch_one_pass_ns", "audit_batch_tree_ns"};
            for (int k = 0; k < pass.length; k++) {
                passes.computeIfAbsent(passNames[k], n -> new ArrayList<>()).add(pass[k]);
            }
            System.out.printf("round %d, parse to envelopes and digests, per event: notify one pass %.0f ns, tree %.0f ns;"
                + " audit batch of %d one pass %.0f ns, tree %.0f ns%n", round, pass[0], pass[1], AUDIT_BATCH, pass[2], pass[3]);
            System.out.printf("round %d, per event (1.3 KiB MinIO record): parse + envelope + digest + msg id %.0f ns, of which"
                + " canonical digest %.0f ns and msg id %.0f ns = %.0f %%; %s (sink %d)%n", round, whole, canonical, id,
                100 * share, CpuPressure.sample().textSince(start), sink & 1);
            System.out.println("  formats, added per event:" + formatText);
            wholes.add(whole);
            canonicals.add(canonical);
            ids.add(id);
            shares.add(share);
            pressures.add(CpuPressure.sample().percentSince(start).orElse(-1));
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("rounds", ROUNDS);
        r.put("parse_envelope_id_ns", Spread.of(wholes, 0));
        r.put("canonical_digest_ns", Spread.of(canonicals, 0));
        r.put("msg_id_ns", Spread.of(ids, 0));
        r.put("hashing_share", Spread.of(shares, 2));
        for (Map.Entry<String, List<Double>> f : formatCosts.entrySet()) {
            r.put(f.getKey(), Spread.of(f.getValue(), 0));
        }
        for (Map.Entry<String, List<Double>> p : passes.entrySet()) {
            r.put(p.getKey(), Spread.of(p.getValue(), 0));
        }
        r.put("cpu_pressure_pct", Spread.of(pressures, 0));
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
        root.set("msg_id_cost", json.valueToTree(r));
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
    }

    /** What one timed loop runs: a parse, returning something to keep. */
    @FunctionalInterface
    private interface Parse {
        int run() throws Exception;
    }

    private static long kept;

    /** ns per event of {@code times} runs of {@code parse}, each making {@code events} events. */
    private static double perEvent(Parse parse, int times, int events) throws Exception {
        long t0 = System.nanoTime();
        for (int i = 0; i < times; i++) {
            kept += parse.run();
        }
        return (System.nanoTime() - t0) / (double) times / events;
    }

    private static long run(EventParser parser, byte[] body) throws Exception {
        List<OutboundEvent> events = parser.parse(body);
        UUID id = MsgIds.content(TargetKind.NOTIFY, "_", events.get(0).contentDigest());
        return id.getMostSignificantBits();
    }

}
