package dev.jetsink.server.http;

import java.time.Duration;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request passes the intake {@link Gate} (SIGTERM: 503 with Retry-After, requests inside
 * finish; while handing over to the next process, answers close their connection), starts its request clock unless it has a body to read ({@link RequestDeadlines}), and
 * has a handler failure of any kind ({@link Throwable}) logged and answered 500 instead of
 * escaping. A request leaves the gate exactly once, when its callback completes, whichever way.
 */
public final class GateHandler extends Handler.Wrapper {

    private static final Logger log = LoggerFactory.getLogger(GateHandler.class);

    /** Retry-After of a request turned away while shutting down: the next daemon is seconds away. */
    static final Duration RETRY_AFTER_SHUTDOWN = Duration.ofSeconds(5);

    private final Gate gate;
    private final RequestDeadlines deadlines;

    GateHandler(Gate gate, RequestDeadlines deadlines, Handler next) {
        super(next);
        this.gate = gate;
        this.deadlines = deadlines;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!HttpJson.hasBody(request)) {
            deadlines.received(request.getConnectionMetaData().getConnection());
        }
        if (gate.handingOver()) {
            // The next process answers this sender: a new connection waits in the socket's backlog.
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        if (!gate.enter()) {
            HttpJson.errorAndClose(response, callback, 503, "shutting down", Optional.of(RETRY_AFTER_SHUTDOWN));
            return true;
        }
        Callback leaving = new LeavingCallback(gate, callback);
        try {
            if (!super.handle(request, response, leaving)) {
                gate.leave();
                return false;
            }
            return true;
        } catch (Throwable e) {
            // Every Throwable, not only RuntimeException: an Error or a sneaked checked exception
            // that escaped would leave the request counted inside, and shutdown would wait out its grace.
            log.error("http handler failed method={} path={} error=\"{}\"", request.getMethod(),
                HttpJson.quote(Request.getPathInContext(request)), e.toString());
            if (response.isCommitted()) {
                leaving.failed(e);
                return true;
            }
            try {
                HttpJson.error(response, leaving, 500, "internal error");
            } catch (Throwable answering) {
                e.addSuppressed(answering);
                leaving.failed(e);
            }
            return true;
        }
    }
}
