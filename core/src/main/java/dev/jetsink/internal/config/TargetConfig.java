package dev.jetsink.internal.config;

import dev.jetsink.MsgIdMode;
import dev.jetsink.OrderMode;
import dev.jetsink.PayloadFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One enabled, validated NATS target. Secrets are {@link Secret}s, so this record's
 * {@code toString()} prints them as {@code ***}.
 *
 * @param kind             notify or audit
 * @param id               instance id, lower-cased; {@code _} for the default instance
 * @param servers          jnats server URLs parsed from {@code address}
 * @param subject          publish subject
 * @param username         user for user/password auth
 * @param password         password for user/password auth
 * @param token            token auth
 * @param credentialsFile  NATS {@code .creds} file
 * @param nkeySeedFile     file holding an NKey user seed ({@code SU...}), read when connecting
 * @param tlsCa            PEM CA bundle
 * @param tlsClientCert    PEM client certificate
 * @param tlsClientKey     PKCS#8 client key
 * @param tlsRequired      require TLS even without TLS files
 * @param queueDir         store-and-forward queue root (the target's own directory is {@link #queuePath()})
 * @param queueLimit       max live queue entries
 * @param jetstreamEnabled whether the JetStream path is on (DESIGN.md "Delivery")
 * @param streamName       stream to publish to; present whenever {@code jetstreamEnabled}
 * @param ackTimeout       per-attempt deadline, 10..120 s
 * @param jetStreamDomain  JetStream domain every JetStream request goes to (leaf-node deployments)
 * @param jetStreamApiPrefix JetStream API subject prefix, instead of a domain (imported APIs)
 * @param comment          free text
 * @param publishWindow    JetStream publishes in flight, 1..4096
 * @param msgIdMode        content-derived (default) or random {@code Nats-Msg-Id}s
 * @param format           the messages' form on NATS: envelope (default), aws or CloudEvents
 * @param order            which order the target promises: none (default) or key, per object (DESIGN.md "Order per object")
 * @param failedMaxRecords records the failed store keeps at most, 100..1 000 000
 * @param failedMaxAge     age at which a failed record is deleted, 1 h..90 days
 * @param displayId        how logs, metrics and errors name it ({@link #displayId(TargetKind, String)} unless renamed)
 */
public record TargetConfig(
    TargetKind kind,
    String id,
    List<String> servers,
    String subject,
    Optional<String> username,
    Optional<Secret> password,
    Optional<Secret> token,
    Optional<Path> credentialsFile,
    Optional<Path> nkeySeedFile,
    Optional<Path> tlsCa,
    Optional<Path> tlsClientCert,
    Optional<Path> tlsClientKey,
    boolean tlsRequired,
    Optional<Path> queueDir,
    long queueLimit,
    boolean jetstreamEnabled,
    Optional<String> streamName,
    Duration ackTimeout,
    Optional<String> jetStreamDomain,
    Optional<String> jetStreamApiPrefix,
    Optional<String> comment,
    int publishWindow,
    MsgIdMode msgIdMode,
    PayloadFormat format,
    OrderMode order,
    int failedMaxRecords,
    Duration failedMaxAge,
    String displayId) {

    /** Id of the instance configured by unsuffixed variables. */
    public static final String DEFAULT_ID = "_";

    public TargetConfig {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        servers = List.copyOf(servers);
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(ackTimeout, "ackTimeout");
        Objects.requireNonNull(msgIdMode, "msgIdMode");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(failedMaxAge, "failedMaxAge");
        Objects.requireNonNull(displayId, "displayId");
        if (format == PayloadFormat.AWS && kind != TargetKind.NOTIFY) {
            throw new IllegalArgumentException("the aws format is for notify targets");
        }
        if (jetStreamDomain.isPresent() && jetStreamApiPrefix.isPresent()) {
            throw new IllegalArgumentException("a JetStream domain and an API prefix exclude each other");
        }
        if (jetstreamEnabled && (streamName.isEmpty() || queueDir.isEmpty())) {
            throw new IllegalArgumentException("the JetStream path needs a stream name and a queue dir");
        }
    }

    /** {@link #subject} parsed; validation has already accepted it. */
    public SubjectTemplate subjectTemplate() {
        return SubjectTemplate.parse("subject", subject, kind);
    }

    /**
     * How logs, metrics and the CLI name a target of {@code kind} with {@code id}:
     * {@code notify primary:nats}; the unsuffixed keys' target is {@code notify _:nats}, as RustFS
     * names it in its ARN.
     */
    public static String displayId(TargetKind kind, String id) {
        return kind.label() + " " + id + ":nats";
    }

    /**
     * This target shown as {@code display} in logs, metrics and errors; its id (queue directory,
     * msg ids) is unchanged.
     */
    public TargetConfig named(String display) {
        return new TargetConfig(kind, id, servers, subject, username, password, token, credentialsFile, nkeySeedFile,
            tlsCa, tlsClientCert, tlsClientKey, tlsRequired, queueDir, queueLimit, jetstreamEnabled, streamName,
            ackTimeout, jetStreamDomain, jetStreamApiPrefix, comment, publishWindow, msgIdMode, format,
            order, failedMaxRecords, failedMaxAge, display);
    }

    /** {@code arn:rustfs:sqs::primary:nats}. */
    public String arn() {
        return "arn:rustfs:sqs::" + id + ":nats";
    }

    /** {@code core} or {@code jetstream}. */
    public String path() {
        return jetstreamEnabled ? "jetstream" : "core";
    }

    /** The id made safe for a directory name: characters outside {@code [a-z0-9_-]} become {@code _}. */
    public String sanitizedId() {
        return sanitize(id);
    }

    /** This target's queue directory, {@code <queue_dir>/<kind>-nats-<sanitised id>}, when it has a queue. */
    public Optional<Path> queuePath() {
        return queueDir.map(d -> d.resolve(kind.label() + "-nats-" + sanitizedId()));
    }

    static String sanitize(String id) {
        return id.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_-]", "_");
    }
}
