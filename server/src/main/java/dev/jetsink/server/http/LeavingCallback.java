package dev.jetsink.server.http;

import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.util.Callback;

/**
 * The callback a request inside the {@link Gate} completes: it leaves the gate once, on success
 * or failure, then completes the request's own callback. A handler that completes its callback and
 * then throws is answered by {@link GateHandler} through this callback again; the gate is not left twice.
 */
final class LeavingCallback implements Callback {
    private final Gate gate;
    private final Callback callback;
    private final AtomicBoolean left = new AtomicBoolean();

    LeavingCallback(Gate gate, Callback callback) {
        this.gate = gate;
        this.callback = callback;
    }

    @Override
    public void succeeded() {
        leave();
        callback.succeeded();
    }

    @Override
    public void failed(Throwable x) {
        leave();
        callback.failed(x);
    }

    private void leave() {
        if (left.compareAndSet(false, true)) {
            gate.leave();
        }
    }

    @Override
    public InvocationType getInvocationType() {
        return callback.getInvocationType();
    }
}
