package dev.jetsink.internal.nats;

import dev.jetsink.internal.config.NKeySeedFile;
import dev.jetsink.internal.nats.ConnectFailedException.Reason;
import io.nats.client.AuthenticationException;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.impl.ErrorListenerLoggerImpl;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Turns {@link ConnectionSettings} into a jnats {@link Connection}: servers, auth (user/password,
 * token, {@code .creds} or an NKey seed file), TLS from PEM with host name verification ({@link PemTls}), endless
 * reconnects, and the request cleanup interval the dispatcher needs above its ack timeout (jnats
 * cancels {@code publishAsync} futures older than that interval — NATS-NOTES). Failures come back as
 * one typed {@link ConnectFailedException} whose text never carries a secret. Every thread jnats
 * starts for the connection is a daemon thread named {@code jetsink-nats-<name>-...} that ends
 * once idle, so a connection nobody closed does not keep the JVM alive.
 */
public final class ConnectionFactory {

    /** jnats' own default; the dispatcher raises it above the JetStream ack timeout. */
    public static final Duration DEFAULT_REQUEST_CLEANUP_INTERVAL = Duration.ofSeconds(5);
    /** jnats' own default per-server connect timeout. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** What the server sees in {@code CONNECT} and shows in its monitoring pages. */
    public static final String DEFAULT_CONNECTION_NAME = "jetsink";

    /** jnats' text when every server failed; the reason itself went to the error listener. */
    private static final String UNABLE = "Unable to connect to NATS servers";

    private final ConnectionSettings settings;
    private final String connectionName;
    private final Duration connectTimeout;
    private final Duration requestCleanupInterval;
    private final Optional<ConnectionListener> connectionListener;
    private final Optional<ErrorListener> errorListener;
    private final java.util.function.Consumer<Options.Builder> customizer;

    private ConnectionFactory(Builder b) {
        this.customizer = b.customizer;
        this.settings = b.settings;
        this.connectionName = b.connectionName;
        this.connectTimeout = b.connectTimeout;
        this.requestCleanupInterval = b.requestCleanupInterval;
        this.connectionListener = b.connectionListener;
        this.errorListener = b.errorListener;
    }

    /** A builder with jnats' defaults for everything but the settings. */
    public static Builder builder(ConnectionSettings settings) {
        return new Builder(settings);
    }

    /** The settings this factory connects with. */
    public ConnectionSettings settings() {
        return settings;
    }

    /**
     * The jnats options, TLS context included; reads the TLS files now.
     *
     * @param attemptTimeout per-server connect timeout, capped by the configured one
     * @throws ConnectFailedException with {@link Reason#TLS_MATERIAL} or {@link Reason#CREDENTIALS_FILE}
     */
    public Options options(Duration attemptTimeout) throws ConnectFailedException {
        return options(attemptTimeout, errorListener.orElseGet(ErrorListenerLoggerImpl::new));
    }

    private Options options(Duration attemptTimeout, ErrorListener errors) throws ConnectFailedException {
        Options.Builder b = new Options.Builder()
                .servers(settings.servers().toArray(new String[0]))
                .connectionName(connectionName)
                .connectionTimeout(min(connectTimeout, attemptTimeout))
                .maxReconnects(-1)
                .requestCleanupInterval(requestCleanupInterval);
        NatsThreads.install(b, connectionName);
        // The one place secrets are revealed: handing them to jnats.
        settings.username().ifPresent(user ->
                b.userInfo(user.toCharArray(), settings.password().orElseThrow().reveal().toCharArray()));
        settings.token().ifPresent(token -> b.token(token.reveal().toCharArray()));
        if (settings.credentialsFile().isPresent()) {
            Path creds = settings.credentialsFile().get();
            // jnats reads the file only during the handshake and then reports a vague I/O error.
            if (!Files.isReadable(creds)) {
                throw failure(Reason.CREDENTIALS_FILE, "credentials file " + creds + " does not exist or is not readable",
                        null);
            }
            b.authHandler(Nats.credentials(creds.toString()));
        }
        if (settings.nkeySeedFile().isPresent()) {
            Path file = settings.nkeySeedFile().get();
            char[] seed;
            try {
                seed = NKeySeedFile.read(file);
            } catch (NKeySeedFile.Unusable e) {
                throw failure(Reason.CREDENTIALS_FILE, "nkey seed " + e.getMessage(), null);
            }
            // jnats keeps this array (not a copy) to sign the nonce of every reconnect: never clear it
            b.authHandler(Nats.staticCredentials(null, seed));
        }
        if (settings.tlsEnabled()) {
            try {
                b.sslContext(PemTls.clientContext(settings.tlsCa(), settings.tlsClientCert(), settings.tlsClientKey()));
            } catch (TlsMaterialException e) {
                throw failure(Reason.TLS_MATERIAL, "unusable TLS material: " + e.getMessage(), e);
            }
        }
        customizer.accept(b);
        // what delivery depends on, whatever the customizer set
        b.maxReconnects(-1).requestCleanupInterval(requestCleanupInterval);
        connectionListener.ifPresent(b::connectionListener);
        b.errorListener(errors);
        return b.build();
    }

    /**
     * Connects, trying the servers in turn, and gives up when the deadline passes. A connection that
     * completes after the deadline is closed, never leaked.
     *
     * @param deadline total time allowed, also the cap of each server attempt
     * @return a connected connection that reconnects forever after later drops
     * @throws ConnectFailedException classified by {@link ConnectFailedException#reason()}
     * @throws InterruptedException if the caller is interrupted while waiting
     */
    public Connection connect(Duration deadline) throws ConnectFailedException, InterruptedException {
        ConnectErrorRecorder recorder = new ConnectErrorRecorder(errorListener.orElseGet(ErrorListenerLoggerImpl::new));
        Options options = options(deadline, recorder);
        CompletableFuture<Connection> result = new CompletableFuture<>();
        // jnats' connect blocks for up to one timeout per server; a thread lets the deadline be exact.
        Thread attempt = new Thread(() -> {
            try {
                result.complete(Nats.connect(options));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "jetsink-nats-connect");
        attempt.setDaemon(true);
        attempt.start();
        try {
            return result.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            abandon(attempt, result);
            throw failure(Reason.TIMEOUT, "no connection within " + deadline.toMillis() + " ms", null);
        } catch (InterruptedException e) {
            abandon(attempt, result);
            throw e;
        } catch (ExecutionException e) {
            // jnats reports why (TLS, refused) to the error listener on the callback executor
            NatsThreads.awaitCallbacks(options);
            throw classify(e.getCause(), recorder);
        }
    }

    /**
     * Closes a connection made here and returns once the callbacks it queued, the CLOSED event
     * among them, have run, as jnats' own close does with the callback executor it owns.
     */
    public static void close(Connection connection) throws InterruptedException {
        connection.close();
        NatsThreads.awaitCallbacks(connection.getOptions());
    }

    private static void abandon(Thread attempt, CompletableFuture<Connection> result) {
        attempt.interrupt();
        result.thenAccept(ConnectionFactory::closeQuietly);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Finds why the attempt failed: first in what jnats threw, then in what it reported to the error
     * listener (where TLS and socket errors end up), then in the server's last {@code -ERR}.
     */
    private ConnectFailedException classify(Throwable thrown, ConnectErrorRecorder recorder) {
        Reason reason = reasonInChain(thrown);
        String detail = describe(thrown);
        Optional<Exception> reported = recorder.lastException();
        if (reported.isPresent() && reported.get() != thrown) {
            detail += "; last reported: " + describe(root(reported.get()));
            if (reason == Reason.OTHER) {
                reason = reasonInChain(reported.get());
            }
        }
        Optional<String> serverError = recorder.lastError();
        if (serverError.isPresent()) {
            detail += "; server said: " + serverError.get();
            if (reason == Reason.OTHER) {
                reason = reasonOf(new IOException(serverError.get()));
            }
        }
        if (reason == Reason.OTHER && Objects.requireNonNullElse(thrown.getMessage(), "").startsWith(UNABLE)) {
            reason = Reason.UNREACHABLE;
        }
        return failure(reason, headline(reason) + " (" + detail + ")", thrown);
    }

    private static Reason reasonInChain(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            Reason found = reasonOf(t);
            if (found != Reason.OTHER) {
                return found;
            }
        }
        return Reason.OTHER;
    }

    private static Throwable root(Throwable error) {
        Throwable t = error;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        if (message != null && message.startsWith(UNABLE)) {
            message = UNABLE; // jnats lists the servers again; the headline names them once
        }
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static Reason reasonOf(Throwable t) {
        String message = Objects.requireNonNullElse(t.getMessage(), "");
        if (t instanceof AuthenticationException || message.contains("Authorization Violation")
                || message.contains("Authentication")) {
            return Reason.AUTHENTICATION;
        }
        if (t instanceof SSLException || message.startsWith("SSL required by server")
                || message.startsWith("SSL connection wanted by client")) {
            return Reason.TLS;
        }
        if (t instanceof ConnectException || t instanceof SocketTimeoutException
                || t instanceof UnknownHostException) {
            return Reason.UNREACHABLE;
        }
        return Reason.OTHER;
    }

    private static String headline(Reason reason) {
        return switch (reason) {
            case AUTHENTICATION -> "the server refused the credentials";
            case TLS -> "TLS handshake failed";
            case UNREACHABLE -> "no server reachable";
            default -> "connection failed";
        };
    }

    /**
     * Builds the exception with servers named and secrets masked. The cause is attached only when no
     * message in its chain contains a secret, so a logged stack trace cannot leak one either.
     */
    private ConnectFailedException failure(Reason reason, String text, Throwable cause) {
        List<String> secrets = settings.secrets();
        String message = mask("cannot connect to NATS " + settings.displayServers() + ": " + text, secrets);
        boolean causeLeaks = false;
        for (Throwable t = cause; t != null && !causeLeaks; t = t.getCause()) {
            String m = Objects.requireNonNullElse(t.getMessage(), "");
            causeLeaks = !mask(m, secrets).equals(m);
        }
        return new ConnectFailedException(reason, message, causeLeaks ? null : cause);
    }

    private static String mask(String text, List<String> secrets) {
        String out = text;
        for (String secret : secrets) {
            if (!secret.isEmpty()) {
                out = out.replace(secret, "***");
            }
        }
        return out;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Connection tuning that is not a target key. */
    public static final class Builder {
        private final ConnectionSettings settings;
        private String connectionName = DEFAULT_CONNECTION_NAME;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestCleanupInterval = DEFAULT_REQUEST_CLEANUP_INTERVAL;
        private Optional<ConnectionListener> connectionListener = Optional.empty();
        private Optional<ErrorListener> errorListener = Optional.empty();
        private java.util.function.Consumer<Options.Builder> customizer = b -> { };

        private Builder(ConnectionSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
        }

        /** Name shown by the server, e.g. {@code jetsink notify primary:nats}. */
        public Builder connectionName(String name) {
            this.connectionName = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Per-server connect timeout (default 2 s); {@link #connect(Duration)} caps it by its deadline. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        /** How old a pending request may get before jnats cancels it; keep it above the ack timeout. */
        public Builder requestCleanupInterval(Duration interval) {
            this.requestCleanupInterval = positive(interval, "requestCleanupInterval");
            return this;
        }

        /** Receives connect, disconnect, reconnect and close events. */
        public Builder connectionListener(ConnectionListener listener) {
            this.connectionListener = Optional.of(listener);
            return this;
        }

        /** Receives server errors ({@code -ERR}) and asynchronous exceptions. */
        public Builder errorListener(ErrorListener listener) {
            this.errorListener = Optional.of(listener);
            return this;
        }

        /**
         * Applied to the jnats options after the configured settings (servers, auth, TLS): an
         * embedder's NKey or auth handler. Reconnecting forever, the request cleanup interval
         * and the listeners are set again after it.
         */
        public Builder options(java.util.function.Consumer<Options.Builder> customizer) {
            this.customizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /** The factory. */
        public ConnectionFactory build() {
            return new ConnectionFactory(this);
        }

        private static Duration positive(Duration d, String name) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive");
            }
            return d;
        }
    }
}
