package dev.jetsink.internal.nats;

import io.nats.client.Connection;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.support.Status;
import java.util.Optional;

/**
 * Passes every callback on to the caller's {@link ErrorListener} and remembers the last exception
 * and server error. Needed because jnats 2.26.2 reports why a connect attempt failed (TLS handshake,
 * refused connection) only to the error listener and then throws a bare
 * {@code IOException("Unable to connect to NATS servers: ...")}.
 */
final class ConnectErrorRecorder implements ErrorListener {
    private final ErrorListener delegate;
    private volatile Exception lastException;
    private volatile String lastError;

    ConnectErrorRecorder(ErrorListener delegate) {
        this.delegate = delegate;
    }

    /** The last exception jnats reported, if any. */
    Optional<Exception> lastException() {
        return Optional.ofNullable(lastException);
    }

    /** The last {@code -ERR} text the server sent, if any. */
    Optional<String> lastError() {
        return Optional.ofNullable(lastError);
    }

    @Override
    public void errorOccurred(Connection conn, String error) {
        lastError = error;
        delegate.errorOccurred(conn, error);
    }

    @Override
    public void exceptionOccurred(Connection conn, Exception exp) {
        lastException = exp;
        delegate.exceptionOccurred(conn, exp);
    }

    @Override
    public void slowConsumerDetected(Connection conn, Consumer consumer) {
        delegate.slowConsumerDetected(conn, consumer);
    }

    @Override
    public void messageDiscarded(Connection conn, Message msg) {
        delegate.messageDiscarded(conn, msg);
    }

    @Override
    public void heartbeatAlarm(Connection conn, JetStreamSubscription sub, long lastStreamSequence,
                               long lastConsumerSequence) {
        delegate.heartbeatAlarm(conn, sub, lastStreamSequence, lastConsumerSequence);
    }

    @Override
    public void unhandledStatus(Connection conn, JetStreamSubscription sub, Status status) {
        delegate.unhandledStatus(conn, sub, status);
    }

    @Override
    public void pullStatusWarning(Connection conn, JetStreamSubscription sub, Status status) {
        delegate.pullStatusWarning(conn, sub, status);
    }

    @Override
    public void pullStatusError(Connection conn, JetStreamSubscription sub, Status status) {
        delegate.pullStatusError(conn, sub, status);
    }

    @Override
    public void flowControlProcessed(Connection conn, JetStreamSubscription sub, String subject,
                                     FlowControlSource source) {
        delegate.flowControlProcessed(conn, sub, subject, source);
    }

    @Override
    public void socketWriteTimeout(Connection conn) {
        delegate.socketWriteTimeout(conn);
    }

    @Override
    public String supplyMessage(String label, Connection conn, Consumer consumer, Subscription sub, Object... pairs) {
        return delegate.supplyMessage(label, conn, consumer, sub, pairs);
    }
}
