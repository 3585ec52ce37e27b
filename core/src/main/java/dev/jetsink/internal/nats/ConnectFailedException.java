package dev.jetsink.internal.nats;

import java.io.IOException;

/**
 * A NATS connection could not be made within its deadline. The message names the servers (user info
 * hidden) and what went wrong, never a password, token or key; {@link #reason()} lets the caller pick
 * a log line or a health state without parsing text.
 */
public final class ConnectFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the connection failed. */
    public enum Reason {
        /** The server refused the credentials (user/password, token, nkey, JWT). */
        AUTHENTICATION,
        /** The TLS handshake failed: untrusted or wrong-host certificate, TLS not offered, client cert refused. */
        TLS,
        /** A configured TLS file is missing, unreadable or invalid. */
        TLS_MATERIAL,
        /** The configured {@code .creds} file is missing or unreadable, or the NKey seed file unusable. */
        CREDENTIALS_FILE,
        /** No server answered (refused, unreachable, connect timeout). */
        UNREACHABLE,
        /** The overall deadline passed before a connection was made. */
        TIMEOUT,
        /** Anything else jnats reported. */
        OTHER
    }

    private final Reason reason;

    /**
     * @param reason  the classified cause
     * @param message a text free of secrets
     * @param cause   the underlying error, or {@code null} when its text could carry a secret
     */
    public ConnectFailedException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** Why the connection failed. */
    public Reason reason() {
        return reason;
    }

    /**
     * Whether waiting would not change the answer: the servers refused the connection (nothing
     * listens there) or do not resolve, refused the credentials or the TLS handshake, or a
     * configured file is unusable. A timeout or an unclassified failure may pass; these need a fix.
     */
    public boolean needsAFix() {
        return switch (reason) {
            case AUTHENTICATION, TLS, TLS_MATERIAL, CREDENTIALS_FILE -> true;
            case UNREACHABLE -> getMessage().contains("Connection refused") || getMessage().contains("UnknownHostException");
            default -> false;
        };
    }
}
