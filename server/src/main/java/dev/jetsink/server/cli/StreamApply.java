package dev.jetsink.server.cli;

import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.internal.nats.StreamFacts;
import dev.jetsink.internal.nats.StreamValidator;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.server.ExitCode;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code stream-plan --apply}: the operator's action of creating the planned stream on a server.
 * The targets never create or change streams (DESIGN.md "Stream validation and verdict"); this is
 * the one place jetsink does, and only when asked. An existing stream is never changed: it is
 * validated against the plan's target settings and reported, so re-running the command is safe.
 */
public final class StreamApply {
    /** Bound on connecting; the operator is waiting at a terminal. */
    static final Duration CONNECT_DEADLINE = Duration.ofSeconds(10);
    private static final int STREAM_NOT_FOUND = 10059;

    private final StreamPlan plan;
    private final PrintWriter out;
    private final PrintWriter err;

    StreamApply(StreamPlan plan, PrintWriter out, PrintWriter err) {
        this.plan = plan;
        this.out = out;
        this.err = err;
    }

    /** Connects with {@code settings}, creates the stream unless it exists, validates it; an exit code. */
    int run(ConnectionSettings settings) {
        String where = String.join(",", settings.displayServers());
        ConnectionFactory factory = ConnectionFactory.builder(settings).connectionName("jetsink-stream-plan").build();
        Connection conn;
        try {
            conn = factory.connect(CONNECT_DEADLINE);
        } catch (ConnectFailedException e) {
            err.println("cannot connect to " + where + ": " + e.getMessage());
            return ExitCode.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("interrupted while connecting to " + where);
            return ExitCode.FAILURE;
        }
        try {
            return createOrCheck(conn.jetStreamManagement(settings.jetStreamApi().options()), where);
        } catch (JetStreamApiException e) {
            err.println("stream " + plan.stream() + " on " + where + ": " + describe(e));
            return ExitCode.FAILURE;
        } catch (IOException e) {
            // jnats reports "503 No Responders" here when JetStream is off on the server.
            err.println("stream " + plan.stream() + " on " + where + ": JetStream request failed: " + e.getMessage());
            return ExitCode.FAILURE;
        } finally {
            closeQuietly(conn);
        }
    }

    private int createOrCheck(JetStreamManagement jsm, String where) throws IOException, JetStreamApiException {
        Optional<StreamInfo> existing = lookup(jsm);
        if (existing.isPresent()) {
            out.println("stream " + plan.stream() + " already exists on " + where + "; left unchanged");
            return report(existing.get());
        }
        StreamInfo created = jsm.addStream(plan.toConfiguration());
        out.println("created stream " + plan.stream() + " on " + where + " (duplicate window "
            + plan.duplicateWindow().toSeconds() + "s, " + plan.replicas() + " replica(s), file storage, "
            + (plan.limits().unlimited() ? "no limits" : "max age " + plan.limits().maxAge().map(StreamLimits::formatAge)
                .orElse("none") + ", max bytes " + plan.limits().maxBytes().map(Object::toString).orElse("none")) + ")");
        return report(created);
    }

    private Optional<StreamInfo> lookup(JetStreamManagement jsm) throws IOException, JetStreamApiException {
        try {
            return Optional.of(jsm.getStreamInfo(plan.stream()));
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == STREAM_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Runs the same validation the targets run at startup on what the server now holds. */
    private int report(StreamInfo info) {
        StreamValidator validator = new StreamValidator(plan.stream(), plan.streamSubject(), plan.ackTimeoutSecs());
        ValidationResult result = validator.validate(StreamFacts.from(info));
        if (result instanceof ValidationResult.Failed failed) {
            err.println("stream " + plan.stream() + " fails validation for subject " + plan.subject()
                + " and ack timeout " + plan.ackTimeoutSecs() + "s:");
            failed.problems().forEach(p -> err.println("  " + p.message()));
            err.println("fix it with `nats stream edit " + plan.stream() + "` (or delete it and run --apply again)");
            return ExitCode.FAILURE;
        }
        out.println("stream " + plan.stream() + " passes jetsink's stream validation for subject " + plan.subject()
            + " and ack timeout " + plan.ackTimeoutSecs() + "s");
        ((ValidationResult.Passed) result).advice().forEach(a -> out.println("advice: " + a));
        return ExitCode.OK;
    }

    private static String describe(JetStreamApiException e) {
        // An operator tool at a terminal: the server's own description says what to change.
        return "server error code " + e.getApiErrorCode() + " status " + e.getErrorCode() + ": " + e.getErrorDescription();
    }

    private static void closeQuietly(Connection conn) {
        try {
            conn.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
