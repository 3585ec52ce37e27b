package dev.jetsink.internal.publish;

import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes what jnats reports asynchronously (server {@code -ERR} lines, exceptions during
 * reconnects) to jetsink's log instead of jnats' default java.util.logging output, which prints a
 * SEVERE stack on every reconnect attempt. Warnings name a fixed cause; the server's own text goes
 * to debug only (DESIGN.md "Classification": logged details come from a fixed vocabulary).
 */
public final class NatsErrorLog implements ErrorListener {

    private static final Logger log = LoggerFactory.getLogger("dev.jetsink.internal.nats.server");
    private final String target;

    public NatsErrorLog(String target) {
        this.target = target;
    }

    @Override
    public void errorOccurred(Connection conn, String error) {
        String lower = error == null ? "" : error.toLowerCase(Locale.ROOT);
        String cause = lower.contains("permissions violation") ? "permissions violation"
            : lower.contains("authorization violation") || lower.contains("authentication") ? "authorization violation"
            : lower.contains("maximum payload") ? "maximum payload exceeded"
            : "server error";
        log.warn("NATS server reported an error target=\"{}\" cause=\"{}\"", target, cause);
        log.debug("NATS server error text target=\"{}\" text=\"{}\"", target, error);
    }

    @Override
    public void exceptionOccurred(Connection conn, Exception exp) {
        // Reconnect attempts against a down server land here each time: the connection events and
        // the per-cycle exhaustion warning already tell the operator; keep the detail at debug.
        log.debug("NATS client exception target=\"{}\" error={}", target, exp.getClass().getSimpleName());
    }
}
