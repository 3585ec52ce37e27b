package dev.jetsink;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.target.NatsTarget;
import dev.jetsink.internal.target.TargetRuntime;
import dev.jetsink.internal.target.Targets;
import dev.jetsink.internal.target.Tracing;
import dev.jetsink.lifecycle.LifecycleListener;
import io.nats.client.Options;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Configures a {@link Sink}. Every setter is a key of the daemon's key table (OPERATIONS.md
 * section 1), so {@link #build()} validates exactly as {@code jetsink check-config} does and reports every
 * problem at once; {@link #natsOptions} reaches what the table does not (NKeys, auth handlers).
 *
 * @param <E> the event type of the sink
 */
public final class SinkBuilder<E> {

    private final TargetKind kind;
    private final Function<E, OutboundEvent> envelope;
    private final Map<String, String> env = new LinkedHashMap<>();
    private Consumer<Options.Builder> natsOptions = b -> { };
    private LifecycleListener listener = LifecycleListener.NONE;
    /** A Micrometer {@code MeterRegistry}, kept as Object so Micrometer stays optional. */
    private Optional<Object> registry = Optional.empty();
    private Tracing tracing = Tracing.NONE;

    SinkBuilder(TargetKind kind, Function<E, OutboundEvent> envelope, Map<String, String> environment) {
        this.kind = kind;
        this.envelope = envelope;
        this.env.putAll(environment);
    }

    private SinkBuilder<E> set(ConfigKey key, String value) {
        env.put(kind.envPrefix() + key.name(), Objects.requireNonNull(value, key.name().toLowerCase(Locale.ROOT)));
        return this;
    }

    /**
     * NATS server URLs ({@code nats://host:4222}, {@code tls://...}); several for a cluster.
     *
     * @param urls one or more server URLs
     * @return this builder
     */
    public SinkBuilder<E> servers(String... urls) {
        return set(ConfigKey.ADDRESS, String.join(",", urls));
    }

    /**
     * The subject events are published on.
     *
     * @param subject a subject, or a template with {@code {bucket}}, {@code {event}}, {@code {key_prefix:N}} (notify), {@code {api}} (audit) or {@code {target}} placeholders (OPERATIONS.md "Routing by bucket and event")
     * @return this builder
     */
    public SinkBuilder<E> subject(String subject) {
        return set(ConfigKey.SUBJECT, subject);
    }

    /**
     * Publishes to this JetStream stream and waits for its ack (else NATS Core).
     *
     * @param stream the stream name
     * @return this builder
     */
    public SinkBuilder<E> jetStream(String stream) {
        set(ConfigKey.JETSTREAM_ENABLE, "on");
        return set(ConfigKey.JETSTREAM_STREAM_NAME, stream);
    }

    /**
     * How long one publish waits for the stream's ack (10 to 120 s; 30 s by default).
     *
     * @param timeout whole seconds
     * @return this builder
     * @throws IllegalArgumentException when {@code timeout} has a fraction of a second
     */
    public SinkBuilder<E> ackTimeout(Duration timeout) {
        if (timeout.toNanos() % 1_000_000_000L != 0) {
            throw new IllegalArgumentException("ack timeout must be whole seconds: " + timeout);
        }
        return set(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, Long.toString(timeout.toSeconds()));
    }

    /**
     * The queue root; the target's own directory is made under it. Required.
     *
     * @param dir a directory this process may write
     * @return this builder
     */
    public SinkBuilder<E> queueDir(Path dir) {
        return set(ConfigKey.QUEUE_DIR, dir.toAbsolutePath().toString());
    }

    /**
     * Events the queue may hold before sends are refused.
     *
     * @param events the limit; zero or negative means the default, 100 000
     * @return this builder
     */
    public SinkBuilder<E> queueLimit(long events) {
        return set(ConfigKey.QUEUE_LIMIT, Long.toString(events));
    }

    /**
     * Publishes awaiting their ack at once (1 to 4096; 1024 by default).
     *
     * @param publishes the window
     * @return this builder
     */
    public SinkBuilder<E> publishWindow(int publishes) {
        return set(ConfigKey.PUBLISH_WINDOW, Integer.toString(publishes));
    }

    /**
     * User and password authentication.
     *
     * @param user the user name
     * @param password the password (never logged)
     * @return this builder
     */
    public SinkBuilder<E> userPassword(String user, String password) {
        set(ConfigKey.USERNAME, user);
        return set(ConfigKey.PASSWORD, password);
    }

    /**
     * Token authentication.
     *
     * @param token the token (never logged)
     * @return this builder
     */
    public SinkBuilder<E> token(String token) {
        return set(ConfigKey.TOKEN, token);
    }

    /**
     * A {@code .creds} file (JWT and NKey seed).
     *
     * @param file the {@code .creds} file
     * @return this builder
     */
    public SinkBuilder<E> credentialsFile(Path file) {
        return set(ConfigKey.CREDENTIALS_FILE, file.toAbsolutePath().toString());
    }

    /**
     * TLS, trusting the CA certificates in this PEM file.
     *
     * @param caPem the CA bundle
     * @return this builder
     */
    public SinkBuilder<E> tlsCa(Path caPem) {
        set(ConfigKey.TLS_REQUIRED, "on");
        return set(ConfigKey.TLS_CA, caPem.toAbsolutePath().toString());
    }

    /**
     * A client certificate (PEM chain) and its key (PKCS#8 PEM) for servers that verify clients.
     *
     * @param certPem the certificate chain
     * @param keyPem its private key
     * @return this builder
     */
    public SinkBuilder<E> tlsClientCertificate(Path certPem, Path keyPem) {
        set(ConfigKey.TLS_CLIENT_CERT, certPem.toAbsolutePath().toString());
        return set(ConfigKey.TLS_CLIENT_KEY, keyPem.toAbsolutePath().toString());
    }

    /**
     * How msg ids are made when the caller gives none: from the content (default) or random.
     *
     * @param mode the mode
     * @return this builder
     */
    public SinkBuilder<E> msgIds(MsgIdMode mode) {
        return set(ConfigKey.MSG_ID, mode.name().toLowerCase(Locale.ROOT));
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
        this.natsOptions = Objects.requireNonNull(customizer, "customizer");
        return this;
    }

    /**
     * Receives every lifecycle event of the target (on delivery threads: keep it quick).
     *
     * @param listener the listener
     * @return this builder
     */
    public SinkBuilder<E> listener(LifecycleListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Publishes the target's metrics (the daemon's names) to this registry. Micrometer is an
     * optional dependency of jetsink-core: bring {@code micrometer-core} when you call this.
     *
     * @param registry a Micrometer registry
     * @return this builder
     */
    public SinkBuilder<E> meterRegistry(io.micrometer.core.instrument.MeterRegistry registry) {
        this.registry = Optional.of(Objects.requireNonNull(registry, "registry"));
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
        this.tracing = Tracing.of(Objects.requireNonNull(openTelemetry, "openTelemetry"));
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
        TargetConfig config = targetConfig();
        ExecutorService callbacks = Sink.receiptThread(kind);
        ReceiptBook book = new ReceiptBook(callbacks);
        TargetRuntime base = TargetRuntime.system();
        Optional<SinkMetrics> metrics = registry.map(SinkMetrics::of);
        LifecycleListener all = LifecycleListener.fanOut(book, metrics.map(SinkMetrics::listener)
            .orElse(LifecycleListener.NONE), listener);
        Targets targets;
        try {
            targets = Targets.start(kind, List.of(config), base.withListener(all).withNatsOptions(natsOptions)
                .withTracing(tracing));
        } catch (RuntimeException e) {
            callbacks.shutdown();
            base.scheduler().shutdownNow();
            throw e;
        }
        NatsTarget target = targets.targets().get(0);
        book.floor(target.queue().map(Sink::newestQueued).orElse(0L));
        return new Sink<>(targets, envelope, book, callbacks, base.scheduler(), metrics);
    }

    private TargetConfig targetConfig() throws InvalidConfigException {
        Map<String, String> all = new LinkedHashMap<>(env);
        all.putIfAbsent(kind.globalEnableVariable(), "on");
        all.putIfAbsent(kind.envPrefix() + ConfigKey.ENABLE.name(), "on");
        JetsinkConfig config = ConfigLoader.load(all, Optional.empty()).require(false);
        List<TargetConfig> targets = config.kindEnabled(kind) ? config.targets(kind) : List.of();
        String who = kind.label();
        if (targets.isEmpty()) {
            throw new InvalidConfigException(List.of(new ConfigProblem(who, kind.globalEnableVariable(),
                "no " + who + " target is enabled: a sink that would deliver nowhere is refused",
                ConfigProblem.Category.VALUE)));
        }
        if (targets.size() > 1) {
            throw new InvalidConfigException(List.of(new ConfigProblem(who, kind.envPrefix() + ConfigKey.ENABLE.name(),
                targets.size() + " " + who + " targets are enabled (" + targets.stream().map(TargetConfig::displayId)
                    .toList() + "); a sink delivers to one", ConfigProblem.Category.VALUE)));
        }
        TargetConfig config0 = targets.get(0);
        if (config0.queuePath().isEmpty()) {
            throw new InvalidConfigException(List.of(new ConfigProblem(config0.displayId(),
                kind.envPrefix() + ConfigKey.QUEUE_DIR.name(),
                "a sink keeps every event durable before it is sent: set a queue directory (queueDir)",
                ConfigProblem.Category.VALUE)));
        }
        return config0;
    }
}
