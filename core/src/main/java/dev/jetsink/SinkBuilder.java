package dev.jetsink;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
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
 * Configures a {@link Sink}. Each setter refuses an impossible argument at once (null, empty,
 * out of range, an empty path) with the setter's name in the message; {@link #build()} then runs
 * the same checks as {@code jetsink check-config} and reports every problem at once, naming the
 * setter ({@code servers(...)}, {@code queueDir(...)}) rather than the daemon's key. Keys given
 * through {@link Jetsink#notifyFromEnvironment} keep their names. {@link #natsOptions} reaches
 * what the setters do not (NKeys, auth handlers).
 *
 * @param <E> the event type of the sink
 */
public final class SinkBuilder<E> {

    private final TargetKind kind;
    private final Function<E, OutboundEvent> envelope;
    private final Map<String, String> env = new LinkedHashMap<>();
    /** The keys a setter wrote, with the setter's name: problems with them are reported in those terms. */
    private final Map<ConfigKey, String> setters = new LinkedHashMap<>();
    /** The setter for each key, for problems with keys no environment map supplied (e.g. a missing one). */
    private static final Map<ConfigKey, String> SETTER_OF = Map.ofEntries(
        Map.entry(ConfigKey.ADDRESS, "servers(...)"), Map.entry(ConfigKey.SUBJECT, "subject(...)"),
        Map.entry(ConfigKey.JETSTREAM_ENABLE, "jetStream(...)"), Map.entry(ConfigKey.JETSTREAM_STREAM_NAME, "jetStream(...)"),
        Map.entry(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, "ackTimeout(...)"), Map.entry(ConfigKey.QUEUE_DIR, "queueDir(...)"),
        Map.entry(ConfigKey.QUEUE_LIMIT, "queueLimit(...)"), Map.entry(ConfigKey.PUBLISH_WINDOW, "publishWindow(...)"),
        Map.entry(ConfigKey.USERNAME, "userPassword(...)"), Map.entry(ConfigKey.PASSWORD, "userPassword(...)"),
        Map.entry(ConfigKey.TOKEN, "token(...)"), Map.entry(ConfigKey.CREDENTIALS_FILE, "credentialsFile(...)"),
        Map.entry(ConfigKey.TLS_REQUIRED, "tlsCa(...)"), Map.entry(ConfigKey.TLS_CA, "tlsCa(...)"),
        Map.entry(ConfigKey.TLS_CLIENT_CERT, "tlsClientCertificate(...)"),
        Map.entry(ConfigKey.TLS_CLIENT_KEY, "tlsClientCertificate(...)"), Map.entry(ConfigKey.MSG_ID, "msgIds(...)"));
    /** The variables an environment map supplied: problems with those keep the daemon's names. */
    private final java.util.Set<String> fromEnvironment;
    private Consumer<Options.Builder> natsOptions = b -> { };
    private LifecycleListener listener = LifecycleListener.NONE;
    /** A Micrometer {@code MeterRegistry}, kept as Object so Micrometer stays optional. */
    private Optional<Object> registry = Optional.empty();
    private Tracing tracing = Tracing.NONE;

    SinkBuilder(TargetKind kind, Function<E, OutboundEvent> envelope, Map<String, String> environment) {
        this.kind = kind;
        this.envelope = envelope;
        this.env.putAll(environment);
        this.fromEnvironment = java.util.Set.copyOf(environment.keySet());
    }

    private SinkBuilder<E> set(ConfigKey key, String setter, String value) {
        env.put(kind.envPrefix() + key.name(), Objects.requireNonNull(value, setter));
        setters.put(key, setter);
        return this;
    }

    private static String text(String setter, String value) {
        Objects.requireNonNull(value, () -> setter + ": must not be null");
        if (value.isBlank()) {
            throw new IllegalArgumentException(setter + ": must not be empty");
        }
        return value;
    }

    private static Path path(String setter, Path value) {
        Objects.requireNonNull(value, () -> setter + ": must not be null");
        if (value.toString().isEmpty()) {
            throw new IllegalArgumentException(setter + ": an empty path would mean the working directory; give a directory");
        }
        return value.toAbsolutePath();
    }

    /**
     * NATS server URLs ({@code nats://host:4222}, {@code tls://...}); several for a cluster.
     *
     * @param urls one or more server URLs
     * @return this builder
     * @throws IllegalArgumentException when no URL is given or one is empty
     */
    public SinkBuilder<E> servers(String... urls) {
        Objects.requireNonNull(urls, "servers(...): must not be null");
        if (urls.length == 0) {
            throw new IllegalArgumentException("servers(...): give at least one server URL");
        }
        for (String url : urls) {
            text("servers(...)", url);
        }
        return set(ConfigKey.ADDRESS, "servers(...)", String.join(",", urls));
    }

    /**
     * The subject events are published on.
     *
     * @param subject a subject, or a template with {@code {bucket}}, {@code {event}}, {@code {key_prefix:N}} (notify), {@code {api}} (audit) or {@code {target}} placeholders (OPERATIONS.md "Routing by bucket and event")
     * @return this builder
     */
    public SinkBuilder<E> subject(String subject) {
        return set(ConfigKey.SUBJECT, "subject(...)", text("subject(...)", subject));
    }

    /**
     * Publishes to this JetStream stream and waits for its ack (else NATS Core).
     *
     * @param stream the stream name
     * @return this builder
     */
    public SinkBuilder<E> jetStream(String stream) {
        text("jetStream(...)", stream);
        set(ConfigKey.JETSTREAM_ENABLE, "jetStream(...)", "on");
        return set(ConfigKey.JETSTREAM_STREAM_NAME, "jetStream(...)", stream);
    }

    /**
     * How long one publish waits for the stream's ack (10 to 120 s; 30 s by default).
     *
     * @param timeout whole seconds
     * @return this builder
     * @throws IllegalArgumentException when {@code timeout} has a fraction of a second or lies
     *     outside 10 to 120 s
     */
    public SinkBuilder<E> ackTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "ackTimeout(...): must not be null");
        if (timeout.toNanos() % 1_000_000_000L != 0 || timeout.getSeconds() < 10 || timeout.getSeconds() > 120) {
            throw new IllegalArgumentException("ackTimeout(...): must be whole seconds from 10 to 120: " + timeout);
        }
        return set(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, "ackTimeout(...)", Long.toString(timeout.toSeconds()));
    }

    /**
     * The queue root; the target's own directory is made under it. Required.
     *
     * @param dir a directory this process may write
     * @return this builder
     * @throws IllegalArgumentException when {@code dir} is the empty path (it would mean the
     *     working directory)
     */
    public SinkBuilder<E> queueDir(Path dir) {
        return set(ConfigKey.QUEUE_DIR, "queueDir(...)", path("queueDir(...)", dir).toString());
    }

    /**
     * Events the queue may hold before sends are refused.
     *
     * @param events the limit, at least 1; 100 000 when not set
     * @return this builder
     * @throws IllegalArgumentException when {@code events} is zero or negative
     */
    public SinkBuilder<E> queueLimit(long events) {
        if (events <= 0) {
            throw new IllegalArgumentException("queueLimit(...): must be at least 1: " + events);
        }
        return set(ConfigKey.QUEUE_LIMIT, "queueLimit(...)", Long.toString(events));
    }

    /**
     * Publishes awaiting their ack at once (1 to 4096; 1024 by default).
     *
     * @param publishes the window
     * @return this builder
     * @throws IllegalArgumentException outside 1 to 4096
     */
    public SinkBuilder<E> publishWindow(int publishes) {
        if (publishes < 1 || publishes > 4096) {
            throw new IllegalArgumentException("publishWindow(...): must be from 1 to 4096: " + publishes);
        }
        return set(ConfigKey.PUBLISH_WINDOW, "publishWindow(...)", Integer.toString(publishes));
    }

    /**
     * User and password authentication.
     *
     * @param user the user name
     * @param password the password (never logged)
     * @return this builder
     */
    public SinkBuilder<E> userPassword(String user, String password) {
        set(ConfigKey.USERNAME, "userPassword(...)", text("userPassword(...) user", user));
        return set(ConfigKey.PASSWORD, "userPassword(...)", text("userPassword(...) password", password));
    }

    /**
     * Token authentication.
     *
     * @param token the token (never logged)
     * @return this builder
     */
    public SinkBuilder<E> token(String token) {
        return set(ConfigKey.TOKEN, "token(...)", text("token(...)", token));
    }

    /**
     * A {@code .creds} file (JWT and NKey seed).
     *
     * @param file the {@code .creds} file
     * @return this builder
     */
    public SinkBuilder<E> credentialsFile(Path file) {
        return set(ConfigKey.CREDENTIALS_FILE, "credentialsFile(...)", path("credentialsFile(...)", file).toString());
    }

    /**
     * TLS, trusting the CA certificates in this PEM file.
     *
     * @param caPem the CA bundle
     * @return this builder
     */
    public SinkBuilder<E> tlsCa(Path caPem) {
        Path ca = path("tlsCa(...)", caPem);
        set(ConfigKey.TLS_REQUIRED, "tlsCa(...)", "on");
        return set(ConfigKey.TLS_CA, "tlsCa(...)", ca.toString());
    }

    /**
     * A client certificate (PEM chain) and its key (PKCS#8 PEM) for servers that verify clients.
     *
     * @param certPem the certificate chain
     * @param keyPem its private key
     * @return this builder
     */
    public SinkBuilder<E> tlsClientCertificate(Path certPem, Path keyPem) {
        Path cert = path("tlsClientCertificate(...) certificate", certPem);
        Path key = path("tlsClientCertificate(...) key", keyPem);
        set(ConfigKey.TLS_CLIENT_CERT, "tlsClientCertificate(...)", cert.toString());
        return set(ConfigKey.TLS_CLIENT_KEY, "tlsClientCertificate(...)", key.toString());
    }

    /**
     * How msg ids are made when the caller gives none: from the content (default) or random.
     *
     * @param mode the mode
     * @return this builder
     */
    public SinkBuilder<E> msgIds(MsgIdMode mode) {
        Objects.requireNonNull(mode, "msgIds(...): must not be null");
        return set(ConfigKey.MSG_ID, "msgIds(...)", mode.name().toLowerCase(Locale.ROOT));
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
        JetsinkConfig config;
        try {
            config = ConfigLoader.load(all, Optional.empty()).require(false);
        } catch (InvalidConfigException e) {
            throw inBuilderTerms(e);
        }
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
                fromEnvironment.contains(kind.envPrefix() + ConfigKey.QUEUE_DIR.name())
                    ? kind.envPrefix() + ConfigKey.QUEUE_DIR.name() : "queueDir(...)",
                "a sink keeps every event durable before it is sent: set a queue directory (queueDir)",
                ConfigProblem.Category.VALUE)));
        }
        return config0;
    }

    /**
     * The loader names the daemon's keys; a caller who used the setters reads the setter instead
     * ({@code servers(...)} rather than {@code RUSTFS_NOTIFY_NATS_ADDRESS}). Keys that came from an
     * environment map keep their names.
     */
    private InvalidConfigException inBuilderTerms(InvalidConfigException e) {
        List<ConfigProblem> renamed = e.problems().stream().map(p -> {
            ConfigProblem q = p;
            for (Map.Entry<ConfigKey, String> k : SETTER_OF.entrySet()) {
                String variable = kind.envPrefix() + k.getKey().name();
                boolean environmentsOwn = fromEnvironment.contains(variable) && !setters.containsKey(k.getKey());
                if (!environmentsOwn && q.variable().equals(variable)) {
                    String message = q.message().replace(variable, k.getValue());
                    String key = k.getKey().keyName();
                    if (message.startsWith(key + " ")) {
                        message = k.getValue() + message.substring(key.length());
                    }
                    q = new ConfigProblem(q.target(), k.getValue(), message, q.category());
                }
            }
            return q;
        }).toList();
        return new InvalidConfigException(renamed);
    }
}
