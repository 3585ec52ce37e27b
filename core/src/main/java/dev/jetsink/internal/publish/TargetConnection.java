package dev.jetsink.internal.publish;

import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ServerVersion;
import dev.jetsink.internal.nats.TlsMaterialStamp;
import dev.jetsink.internal.time.Deadline;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A target's one NATS connection: made on demand within an attempt's deadline, kept while jnats
 * reconnects on its own, dropped when closed or when the TLS files change on disk.
 */
public final class TargetConnection implements ConnectionListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TargetConnection.class);

    /** What the target does on connection events (reset the verdict, wake the probe, fail in-flight). */
    public interface Hooks {
        void connected(boolean reconnect);

        void disconnected();

        void closed();

        void tlsRotated();
    }

    private final ConnectionFactory factory;
    private final Hooks events;
    private Connection connection;
    private TlsMaterialStamp stamp;
    private boolean closed;
    /** Why the last attempt to connect failed; cleared by the next success. */
    private volatile ConnectFailedException lastConnectFailure;
    /** The server version last logged, so a reconnect to the same version says nothing. */
    private volatile String loggedVersion = "";

    /** @param factoryFor builds the factory given the listener this connection installs */
    public TargetConnection(Function<ConnectionListener, ConnectionFactory> factoryFor, Hooks events) {
        this.factory = factoryFor.apply(this);
        this.events = events;
    }

    /**
     * A connected connection, connecting first when there is none, within the deadline.
     *
     * @throws ConnectFailedException no connection could be made, or the current one is down
     */
    public Connection await(Deadline deadline) throws ConnectFailedException, InterruptedException {
        Connection c;
        synchronized (this) {
            if (closed) {
                throw new ConnectFailedException(ConnectFailedException.Reason.OTHER, "target is closed", null);
            }
            dropIfTlsRotated();
            c = connection;
        }
        if (c == null) {
            TlsMaterialStamp before = TlsMaterialStamp.of(factory.settings().tlsFiles());
            Connection made;
            try {
                made = factory.connect(deadline.remaining());
            } catch (ConnectFailedException e) {
                lastConnectFailure = e; // its message names the servers, once
                throw e;
            }
            lastConnectFailure = null;
            synchronized (this) {
                if (closed) {
                    closeQuietly(made);
                    throw new ConnectFailedException(ConnectFailedException.Reason.OTHER, "target is closed", null);
                }
                connection = made;
                stamp = before;
            }
            logServerVersion(made);
            events.connected(false);
            return made;
        }
        if (c.getStatus() != Connection.Status.CONNECTED) {
            // Publishing into jnats' reconnect buffer would only wait out the deadline: fail fast,
            // and let RECONNECTED wake the probe.
            throw new ConnectFailedException(ConnectFailedException.Reason.UNREACHABLE,
                "connection is down, reconnecting to " + String.join(",", factory.settings().displayServers()), null);
        }
        return c;
    }

    /** The current connection when it is connected, without trying to connect. */
    public synchronized Optional<Connection> current() {
        return Optional.ofNullable(connection).filter(c -> c.getStatus() == Connection.Status.CONNECTED);
    }

    /** Why the last attempt to connect failed, naming the servers; empty once one succeeded. */
    public Optional<String> lastConnectFailure() {
        return Optional.ofNullable(lastConnectFailure).map(ConnectFailedException::getMessage);
    }

    /** Whether the last attempt failed in a way waiting will not mend ({@link ConnectFailedException#needsAFix()}). */
    public boolean lastConnectFailureNeedsAFix() {
        ConnectFailedException last = lastConnectFailure;
        return last != null && last.needsAFix();
    }

    private void dropIfTlsRotated() {
        if (connection == null || stamp == null || factory.settings().tlsFiles().isEmpty()) {
            return;
        }
        if (TlsMaterialStamp.of(factory.settings().tlsFiles()).changedSince(stamp)) {
            Connection old = connection;
            connection = null;
            stamp = null;
            // Closing a TLS connection can take seconds; the next attempt need not wait for it.
            Thread closer = new Thread(() -> closeQuietly(old), "jetsink-close-rotated");
            closer.setDaemon(true);
            closer.start();
            events.tlsRotated();
        }
    }

    @Override
    @SuppressWarnings("deprecation") // ConnectionListener still declares this deprecated form abstract, so it must be implemented
    public void connectionEvent(Connection conn, ConnectionListener.Events type) {
        // the deprecated two-argument form; jnats calls the four-argument one
    }

    @Override
    public void connectionEvent(Connection conn, ConnectionListener.Events type, Long time, String uriDetails) {
        switch (type) {
            case RECONNECTED -> {
                logServerVersion(conn);
                events.connected(true);
            }
            case DISCONNECTED -> events.disconnected();
            case CLOSED -> {
                synchronized (this) {
                    if (connection == conn) {
                        connection = null;
                    }
                }
                events.closed();
            }
            default -> {
            }
        }
    }

    /** Names the server version once per change, and warns when it is older than jetsink is tested with. */
    private void logServerVersion(Connection c) {
        var info = c.getServerInfo();
        String version = info == null ? "" : String.valueOf(info.getVersion());
        if (info == null || version.equals(loggedVersion)) {
            return;
        }
        loggedVersion = version;
        String name = c.getOptions().getConnectionName();
        log.info("connected to nats-server {} connection=\"{}\" server={} jetstream={}", version, name,
                info.getServerName(), info.isJetStreamAvailable());
        ServerVersion.warning(info).ifPresent(w -> log.warn("{} connection=\"{}\"", w, name));
    }

    @Override
    public void close() {
        Connection c;
        synchronized (this) {
            closed = true;
            c = connection;
            connection = null;
        }
        if (c != null) {
            closeQuietly(c);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            // returns after the CLOSED event has been handled, as before jetsink gave jnats its pools
            ConnectionFactory.close(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // closing a broken connection may fail; nothing is lost by it
        }
    }
}
