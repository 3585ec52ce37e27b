package dev.jetsink;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.Secret;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.config.TargetSettings;
import dev.jetsink.internal.config.TargetSettings.Origin;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.metrics.SinkMetrics;
import dev.jetsink.internal.publish.Tracing;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetRuntime;
import dev.jetsink.internal.targets.Targets;
import dev.jetsink.lifecycle.LifecycleListener;
import io.nats.client.Options;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Configures a {@link Sink}. The setters only record typed values (a null argument is refused at
 * once with a NullPointerException naming it); {@link #build()} checks everything with the
 * validator jetsink's own configuration check uses and reports every problem at once, each named
 * by the setter ({@code queueLimit(...) must be at least 1: 0}) rather than a configuration key. Keys given
 * through {@link Jetsink#notifyFromEnvironment} keep their names; a setter overrides such a key.
 * {@link #natsOptions} reaches what the setters do not (other auth handlers, jnats tuning).
 *
 * @param <E> the event type of the sink
 */
public final class SinkBuilder<E> {

    private final TargetKind kind;
    private final Function<E, OutboundEvent> envelope;
    private final Map<String, String> environment;
    /** The setters' values; keys no setter and no environment map set are named by their setter. */
    private final TargetSettings.Builder settings;
    private Consumer<Options.Builder> natsOptions = b -> { };
    private LifecycleListener listener = LifecycleListener.NONE;
    /** A Micrometer {@code MeterRegistry}, kept as Object so Micrometer stays optional. */
    private Optional<Object> registry = Optional.empty();
    private Tracing tracing = Tracing.NONE;

    SinkBuilder(TargetKind kind, Function<E, OutboundEvent> envelope, Map<String, String> environment) {
        this.kind = kind;
        this.envelope = envelope;
        this.environment = Map.copyOf(environment);
        this.settings = TargetSettings.builder(kind, TargetConfig.DEFAULT_ID, Origin.methods(kind));
    }

    private static <T> T given(String setter, String argument, T value) {
        return Objects.requireNonNull(value, () -> setter + "(...): " + argument + " must not be null");
    }

    private static Origin by(ConfigKey key) {
        return Origin.method(key);
    }

    /** Relative paths are resolved now; the empty path is kept, for build() to refuse. */
    private static Path absolute(String setter, String argument, Path path) {
        return given(setter, argument, path).toString().isEmpty() ? path : path.toAbsolutePath();
    }

    /**
     * NATS server URLs ({@code nats://host:4222}, {@code tls://...}); several for a cluster.
     *
     * @param urls one or more server URLs ({@code host:port} also reads as {@code nats://host:port})
     * @return this builder
     */
    public SinkBuilder<E> servers(String... urls) {
        for (String url : given("servers", "urls", urls)) {
            given("servers", "a URL", url);
        }
        settings.servers(List.of(urls), by(ConfigKey.ADDRESS));
        return this;
    }

    /**
     * The subject events are published on.
     *
     * @param subject a subject, or a template with {@code {bucket}}, {@code {event}}, {@code {key_prefix:N}} (notify), {@code {api}} (audit) or {@code {target}} placeholders (OPERATIONS.md "Routing by bucket and event")
     * @return this builder
     */
    public SinkBuilder<E> subject(String subject) {
        settings.subject(given("subject", "subject", subject), by(ConfigKey.SUBJECT));
        return this;
    }

    /**
     * Publishes to this JetStream stream and waits for its ack (else NATS Core).
     *
     * @param stream the stream name
     * @return this builder
     */
    public SinkBuilder<E> jetStream(String stream) {
        settings.jetStream(true, by(ConfigKey.JETSTREAM_ENABLE))
            .streamName(given("jetStream", "stream", stream), by(ConfigKey.JETSTREAM_STREAM_NAME));
        return this;
    }

    /**
     * How long one publish waits for the stream's ack (10 to 120 s; 30 s by default).
     *
     * @param timeout whole seconds (else {@link #build()} refuses it)
     * @return this builder
     */
    public SinkBuilder<E> ackTimeout(Duration timeout) {
        settings.ackTimeout(given("ackTimeout", "timeout", timeout), by(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS));
        return this;
    }

    /**
     * The queue root; the target's own directory is made under it. Required.
     *
     * @param dir a directory this process may write; a relative path is resolved against the
     *     working directory now, the empty path is refused by {@link #build()}
     * @return this builder
     */
    public SinkBuilder<E> queueDir(Path dir) {
        settings.queueDir(absolute("queueDir", "dir", dir), by(ConfigKey.QUEUE_DIR));
        return this;
    }

    /**
     * Events the queue may hold before sends are refused.
     *
     * @param events the limit, at least 1; 100 000 when not set
     * @return this builder
     */
    public SinkBuilder<E> queueLimit(long events) {
        settings.queueLimit(events, by(ConfigKey.QUEUE_LIMIT));
        return this;
    }

    /**
     * Failed records kept in the failed-events store; past it the oldest is deleted.
     *
     * @param records 100 to 1 000 000; 10 000 when not set
     * @return this builder
     */
    public SinkBuilder<E> failedMaxRecords(int records) {
        settings.failedMaxRecords(records, by(ConfigKey.FAILED_MAX_RECORDS));
        return this;
    }

    /**
     * How long a failed record is kept before maintenance deletes it.
     *
     * @param age whole hours from 1 hour to 90 days (else {@link #build()} refuses it); 72 hours when not set
     * @return this builder
     */
    public SinkBuilder<E> failedMaxAge(Duration age) {
        settings.failedMaxAge(given("failedMaxAge", "age", age), by(ConfigKey.FAILED_MAX_AGE_HOURS));
        return this;
    }

    /**
     * Publishes awaiting their ack at once (1 to 4096; 1024 by default).
     *
     * @param publishes the window
     * @return this builder
     */
    public SinkBuilder<E> publishWindow(int publishes) {
        settings.publishWindow(publishes, by(ConfigKey.PUBLISH_WINDOW));
        return this;
    }

    /**
     * User and password authentication.
     *
     * @param user the user name
     * @param password the password (never logged)
     * @return this builder
     */
    public SinkBuilder<E> userPassword(String user, String password) {
        settings.username(given("userPassword", "user", user), by(ConfigKey.USERNAME))
            .password(new Secret(given("userPassword", "password", password)), by(ConfigKey.PASSWORD));
        return this;
    }

    /**
     * Token authentication.
     *
     * @param token the token (never logged)
     * @return this builder
     */
    public SinkBuilder<E> token(String token) {
        settings.token(new Secret(given("token", "token", token)), by(ConfigKey.TOKEN));
        return this;
    }

    /**
     * A {@code .creds} file (JWT and NKey seed).
     *
     * @param file the {@code .creds} file
     * @return this builder
     */
    public SinkBuilder<E> credentialsFile(Path file) {
        settings.credentialsFile(absolute("credentialsFile", "file", file), by(ConfigKey.CREDENTIALS_FILE));
        return this;
    }

    /**
     * NKey authentication, for a server that lists the user's public key ({@code nkey: U...}):
     * the file holds the user's seed ({@code SU...}) and nothing else. It is checked when the sink
     * is built and read again for every new connection; the seed is never logged.
     *
     * @param file the seed file
     * @return this builder
     */
    public SinkBuilder<E> nkeySeedFile(Path file) {
        settings.nkeySeedFile(absolute("nkeySeedFile", "file", file), by(ConfigKey.NKEY_SEED_FILE));
        return this;
    }

    /**
     * The JetStream domain the stream lives in, e.g. the hub's domain when connecting to a leaf
     * node that has no JetStream of its own. Every JetStream request (stream validation, publish
     * acknowledgements) goes to {@code $JS.<domain>.API}.
     *
     * @param domain the domain, one token
     * @return this builder
     */
    public SinkBuilder<E> jetStreamDomain(String domain) {
        settings.jetStreamDomain(given("jetStreamDomain", "domain", domain), by(ConfigKey.JETSTREAM_DOMAIN));
        return this;
    }

    /**
     * The subject prefix of the JetStream API to use instead of {@code $JS.API}, e.g. an API
     * imported from another account; excludes {@link #jetStreamDomain(String)}.
     *
     * @param prefix the prefix, e.g. {@code $JS.hub.API}
     * @return this builder
     */
    public SinkBuilder<E> jetStreamApiPrefix(String prefix) {
        settings.jetStreamApiPrefix(given("jetStreamApiPrefix", "prefix", prefix), by(ConfigKey.JETSTREAM_API_PREFIX));
        return this;
    }

    /**
     * TLS, trusting the CA certificates in this PEM file.
     *
     * @param caPem the CA bundle
     * @return this builder
     */
    public SinkBuilder<E> tlsCa(Path caPem) {
        settings.tlsRequired(true, by(ConfigKey.TLS_REQUIRED))
            .tlsCa(absolute("tlsCa", "caPem", caPem), by(ConfigKey.TLS_CA));
        return this;
    }

    /**
     * A client certificate (PEM chain) and its key (PKCS#8 PEM) for servers that verify clients.
     *
     * @param certPem the certificate chain
     * @param keyPem its private key
     * @return this builder
     */
    public SinkBuilder<E> tlsClientCertificate(Path certPem, Path keyPem) {
        settings.tlsClientCert(absolute("tlsClientCertificate", "certPem", certPem), by(ConfigKey.TLS_CLIENT_CERT))
            .tlsClientKey(absolute("tlsClientCertificate", "keyPem", keyPem), by(ConfigKey.TLS_CLIENT_KEY));
        return this;
    }

    /**
     * How msg ids are made when the caller gives none: from the content (default) or random.
     *
     * @param mode the mode
     * @return this builder
     */
    public SinkBuilder<E> msgIds(MsgIdMode mode) {
        settings.msgIds(given("msgIds", "mode", mode), by(ConfigKey.MSG_ID));
        return this;
    }

    /**
     * What the messages look like on NATS: the envelope (default), AWS's own notification
     * document (notify only) or a CloudEvent in binary or structured mode.
     *
     * @param format the format
     * @return this builder
     */
    public SinkBuilder<E> format(PayloadFormat format) {
        settings.format(given("format", "format", format), by(ConfigKey.FORMAT));
        return this;
    }

    /**
     * Per-object order for the current target: KEY stores each object's events in the order they
     * were accepted; default NONE.
     *
     * @param mode the order the target promises
     * @return this builder
     */
    public SinkBuilder<E> order(OrderMode mode) {
        settings.order(given("order", "mode", mode), by(ConfigKey.ORDER));
        return this;
    }

    /**
     * Applied to the jnats {@link Options.Builder} after the settings above: the escape hatch
     * for what the key table does not offer. Reconnecting forever and jetsink's listeners are set
     * again after it.
     *
     * @param customizer changes the jnats options
     * @return this builder
     */
    public SinkBuilder<E> natsOptions(Consumer<Options.Builder> customizer) {
        this.natsOptions = given("natsOptions", "customizer", customizer);
        return this;
    }

    /**
     * Receives every lifecycle event of the target (on delivery threads: keep it quick).
     *
     * @param listener the listener
     * @return this builder
     */
    public SinkBuilder<E> listener(LifecycleListener listener) {
        this.listener = given("listener", "listener", listener);
        return this;
    }

    /**
     * Publishes the target's metrics ({@code jetsink_*}, the names the operations guide lists) to
     * this registry. Micrometer is an
     * optional dependency of jetsink-core: bring {@code micrometer-core} when you call this.
     *
     * @param registry a Micrometer registry
     * @return this builder
     */
    public SinkBuilder<E> meterRegistry(io.micrometer.core.instrument.MeterRegistry registry) {
        this.registry = Optional.of(given("meterRegistry", "registry", registry));
        return this;
    }

    /**
     * Records OpenTelemetry spans through {@code openTelemetry}: one from each send to its fsync
     * (its parent the trace context given to {@link Sink#send(Object, TraceContext)}), one per
     * publish attempt (kind PRODUCER), whose context is the {@code traceparent} the message carries.
     * OpenTelemetry is an optional dependency of jetsink-core: bring {@code opentelemetry-api}
     * (and an SDK) when you call this. Without it no span is made and the trace context given to
     * a send is published unchanged.
     *
     * @param openTelemetry the OpenTelemetry instance, e.g. the SDK the application configured
     * @return this builder
     */
    public SinkBuilder<E> openTelemetry(io.opentelemetry.api.OpenTelemetry openTelemetry) {
        this.tracing = Tracing.of(given("openTelemetry", "openTelemetry", openTelemetry));
        return this;
    }

    /**
     * Validates, opens the queue and starts delivering; connecting to NATS goes on in the
     * background (events queue meanwhile).
     *
     * @throws InvalidConfigException with every problem: bad values, mistyped keys, no servers, no
     *     queue directory, or no target at all (a sink that would deliver nowhere)
     * @throws QueueLockedException when another process holds the queue
     * @return the running sink
     */
    public Sink<E> build() throws InvalidConfigException {
        TargetConfig config = SinkTarget.resolve(kind, environment, settings);
        Receipts receipts = new Receipts(kind);
        ReceiptBook book = new ReceiptBook(receipts);
        TargetRuntime base = TargetRuntime.system();
        Optional<SinkMetrics> metrics = registry.map(SinkMetrics::of);
        LifecycleListener all = LifecycleListener.fanOut(book, metrics.map(SinkMetrics::listener)
            .orElse(LifecycleListener.NONE), listener);
        Targets targets;
        try {
            targets = Targets.start(kind, List.of(config), base.withListener(all).withNatsOptions(natsOptions)
                .withTracing(tracing));
        } catch (RuntimeException e) {
            receipts.close(0);
            base.scheduler().shutdownNow();
            throw e;
        }
        NatsTarget target = targets.targets().get(0);
        book.floor(target.queue().map(Sink::newestQueued).orElse(0L));
        return new Sink<>(targets, envelope, book, receipts, base.scheduler(), metrics);
    }
}
