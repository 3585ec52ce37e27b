package dev.jetsink.server.ingest;

import dev.jetsink.internal.config.TargetKind;
import java.util.Optional;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses before the body is read when the answer is certain already (an unknown target, a full
 * queue, a target whose init failed): a retry storm against a full queue then costs no body read
 * and no parse ({@link Ingest#refusalBeforeBody}).
 */
final class EarlyRefusal extends Handler.Wrapper {

    private final TargetKind kind;
    private final Ingest ingest;

    EarlyRefusal(TargetKind kind, Ingest ingest, Handler next) {
        super(next);
        this.kind = kind;
        this.ingest = ingest;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Optional<IngestResult.Rejected> early = ingest.refusalBeforeBody(kind, TargetRoute.target(request));
        if (early.isPresent()) {
            BodyIntake.reject(response, callback, early.get());
            return true;
        }
        return super.handle(request, response, callback);
    }
}
