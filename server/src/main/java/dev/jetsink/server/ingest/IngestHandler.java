package dev.jetsink.server.ingest;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.http.BearerToken;
import dev.jetsink.server.http.BodyBudget;
import dev.jetsink.server.http.RequestDeadlines;
import java.util.Optional;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code POST /notify}, {@code POST /notify/{id}}, {@code POST /audit}, {@code POST /audit/{id}}:
 * the webhook endpoints an object store's notify and audit targets point at (DESIGN.md "Daemon").
 * A chain of small handlers, composed in {@link #chain}, each with one check and its answer:
 * the path ({@link TargetRoute}, 404), the method ({@link PostOnly}, 405), the token
 * ({@link SenderToken}, 401), the refusals certain before the body ({@link EarlyRefusal}, 404 and
 * 503), then the body and the answer ({@link BodyIntake}). This outer one counts every answer by
 * its status in {@code jetsink_ingest_requests_total}.
 */
public final class IngestHandler extends Handler.Wrapper {

    private final IngestMetrics metrics;

    public IngestHandler(TargetKind kind, Ingest ingest, Optional<BearerToken> token, BodyBudget budget,
                         RequestDeadlines deadlines, IngestMetrics metrics) {
        super(chain(kind, ingest, token, budget, deadlines, metrics));
        this.metrics = metrics;
    }

    /** The request path of a webhook, in the order the checks run. */
    private static Handler chain(TargetKind kind, Ingest ingest, Optional<BearerToken> token, BodyBudget budget,
                                 RequestDeadlines deadlines, IngestMetrics metrics) {
        Handler body = new BodyIntake(kind, ingest, budget, deadlines, metrics);
        Handler beforeBody = new EarlyRefusal(kind, ingest, body);
        Handler authorized = token.<Handler>map(t -> new SenderToken(t, beforeBody)).orElse(beforeBody);
        return new TargetRoute(kind, new PostOnly(authorized));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        return super.handle(request, response, counted(response, callback));
    }

    // Every answer is counted by its status; a request whose client went away, as aborted.
    private Callback counted(Response response, Callback callback) {
        return new Callback() {
            @Override
            public void succeeded() {
                metrics.answered(response.getStatus());
                callback.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                metrics.aborted();
                callback.failed(x);
            }

            @Override
            public InvocationType getInvocationType() {
                return callback.getInvocationType();
            }
        };
    }
}
