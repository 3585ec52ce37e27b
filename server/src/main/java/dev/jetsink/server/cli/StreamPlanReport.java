package dev.jetsink.server.cli;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.TargetSettings;
import dev.jetsink.internal.config.TargetKind;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;

/** The text {@code stream-plan} prints: one section per thing the operator has to decide or type. */
public final class StreamPlanReport {
    private final StreamPlan plan;
    private final Optional<QueueSizing> queue;
    private final long eventBytes;

    StreamPlanReport(StreamPlan plan, Optional<QueueSizing> queue, long eventBytes) {
        this.plan = plan;
        this.queue = queue;
        this.eventBytes = eventBytes;
    }

    void print(PrintWriter out) {
        if (plan.templated()) {
            out.println("stream subjects");
            out.println("  " + plan.streamSubject() + "  (every subject the template " + plan.subject() + " yields;"
                + " a stream listing less fails validation)");
            out.println();
        }
        out.println("duplicate window");
        out.println("  required: " + plan.duplicateWindow().toSeconds() + "s  (" + plan.windowFormula() + ")");
        out.println("  a smaller window fails stream validation; raise it whenever the ack timeout is raised");
        out.println();
        out.println("limits");
        if (plan.limits().unlimited()) {
            plan.warnings().forEach(w -> out.println("  warning: " + w));
        } else {
            out.println("  max age:   " + plan.limits().maxAge().map(StreamLimits::formatAge).orElse("none"));
            out.println("  max bytes: " + plan.limits().maxBytes().map(Object::toString).orElse("none")
                + "  (the oldest messages are discarded first)");
        }
        out.println();
        out.println("stream config (NATS API JSON; duplicate_window and max_age are in nanoseconds)");
        out.println(plan.configJson());
        out.println();
        out.println("nats CLI equivalent");
        out.println("  " + plan.natsCliCommand());
        out.println("  or save the JSON above (`jetsink stream-plan ... --json > stream.json`) and run:");
        out.println("  nats stream add " + plan.stream() + " --config stream.json");
        if (plan.belowRecommendedReplicas()) {
            out.println("  note: with " + plan.replicas() + " replica(s) an acknowledged event survives a clean restart"
                + " but not the loss of the node holding it; use 3 or more on a cluster");
        }
        if (plan.replicas() == 1) {
            out.println("  note: an R1 stream acknowledges a publish before nats-server has fsynced it (the server's"
                + " sync_interval, 2 min by default), and jetsink removes the event from its queue on that"
                + " acknowledgement: a power loss of the server's host can drop it. Set"
                + " `jetstream { sync_interval: always }` in the server's configuration, or use 3 replicas"
                + " (OPERATIONS, \"The broker's own durability\")");
        }
        out.println();
        out.println("target settings (notify shown; audit uses RUSTFS_AUDIT_NATS_)");
        setting(out, ConfigKey.JETSTREAM_ENABLE, "on");
        setting(out, ConfigKey.SUBJECT, plan.subject());
        setting(out, ConfigKey.JETSTREAM_STREAM_NAME, plan.stream());
        setting(out, ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, Integer.toString(plan.ackTimeoutSecs()));
        out.println();
        out.println("queue_limit sizing");
        queue.ifPresentOrElse(q -> printSizing(out, q), () -> {
            out.println("  give --peak-rate R --outage-secs T: queue_limit >= R x T plus headroom");
            out.println("  (e.g. 50 events/s through a one-hour outage: 50 x 3600 = 180000); default limit "
                + TargetSettings.DEFAULT_QUEUE_LIMIT);
        });
    }

    private void printSizing(PrintWriter out, QueueSizing q) {
        out.println("  " + number(q.peakRate()) + " events/s x " + q.outageSecs() + " s outage = " + q.entries()
            + " entries");
        out.println("  with " + QueueSizing.HEADROOM_PERCENT + "% headroom: " + q.suggestedLimit());
        setting(out, ConfigKey.QUEUE_LIMIT, Long.toString(q.suggestedLimit()));
        out.println("  disk for queue_dir: about " + mebibytes(q.diskBytes(eventBytes)) + " MiB at " + eventBytes
            + " B per event (payload + ~" + QueueSizing.ENTRY_OVERHEAD_BYTES + " B per entry)");
        if (q.suggestedLimit() < TargetSettings.DEFAULT_QUEUE_LIMIT) {
            out.println("  (below the default " + TargetSettings.DEFAULT_QUEUE_LIMIT + "; keeping the default is also fine)");
        }
    }

    private static void setting(PrintWriter out, ConfigKey key, String value) {
        out.println("  " + key.variable(TargetKind.NOTIFY, "") + "=" + value);
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%s", d);
    }

    private static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / (1024.0 * 1024.0));
    }
}
