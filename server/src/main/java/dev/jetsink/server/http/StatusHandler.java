package dev.jetsink.server.http;

import dev.jetsink.internal.targets.StatusBoard;
import dev.jetsink.lifecycle.StreamVerdict;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /status} (and {@code HEAD}): per target its state and since when, verdict,
 * connected server, queue length and oldest entry's age, events in and out per second over 10 s
 * and 5 min, last error with its time, failed-store length and duplicate acks. Always 200: unlike
 * {@code /health} it is for reading, not for a load balancer's decision. Holds no secret: errors
 * are jetsink's fixed descriptions.
 */
public final class StatusHandler extends Handler.Abstract {

    private final StatusBoard board;
    private final Clock clock;

    public StatusHandler(StatusBoard board, Clock clock) {
        this.board = board;
        this.clock = clock;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpJson.allowOnly(request, response, callback, "GET")) {
            return true;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("time", clock.instant().toString());
        body.put("targets", json(board.snapshot()));
        HttpJson.send(response, callback, 200, body);
        return true;
    }

    /** The JSON of every target's status, in the order {@code jetsink status} shows them. */
    public static List<Map<String, Object>> json(List<StatusBoard.TargetStatus> all) {
        return all.stream().map(StatusHandler::entry).toList();
    }

    private static Map<String, Object> entry(StatusBoard.TargetStatus s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", s.kind());
        m.put("id", s.id());
        m.put("target", s.target());
        m.put("state", s.state().label());
        m.put("since", s.since().toString());
        // the Core path shows "none" in lower case: no stream, rather than a verdict
        m.put("verdict", s.verdict() == StreamVerdict.NONE ? "none" : s.verdict().name());
        m.put("connected_server", s.connectedServer().orElse(null));
        m.put("queue_length", s.queueLength());
        m.put("oldest_age_seconds", s.oldestAge().map(d -> d.toMillis() / 1000.0).orElse(null));
        Map<String, Object> rates = new LinkedHashMap<>();
        rates.put("in_10s", round(s.rates().in10s()));
        rates.put("in_5m", round(s.rates().in5m()));
        rates.put("out_10s", round(s.rates().out10s()));
        rates.put("out_5m", round(s.rates().out5m()));
        m.put("events_per_second", rates);
        m.put("last_error", s.lastError().map(e -> {
            Map<String, Object> err = new LinkedHashMap<>();
            err.put("text", e.text());
            err.put("at", e.at().toString());
            return err;
        }).orElse(null));
        m.put("failed_store_length", s.failedStoreLength());
        m.put("duplicate_acks", s.duplicateAcks());
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
