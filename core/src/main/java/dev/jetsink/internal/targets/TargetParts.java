package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.delivery.DeliveryContext;
import dev.jetsink.internal.delivery.DeliveryLog;
import dev.jetsink.internal.delivery.Dispatcher;
import dev.jetsink.internal.delivery.OutcomeHandling;
import dev.jetsink.internal.delivery.RetrySchedule;
import dev.jetsink.internal.delivery.StreamConcurrency;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.internal.nats.JetStreamApi;
import dev.jetsink.internal.nats.OutcomeClassifier;
import dev.jetsink.internal.nats.Verdict;
import dev.jetsink.internal.publish.CorePublisher;
import dev.jetsink.internal.publish.DirectPublish;
import dev.jetsink.internal.publish.EntrySubjects;
import dev.jetsink.internal.publish.JetStreamPublisher;
import dev.jetsink.internal.publish.NatsErrorLog;
import dev.jetsink.internal.publish.Publisher;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.internal.publish.TargetConnection;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.lifecycle.LifecycleListener;
import java.util.Optional;

/**
 * The parts of one target, wired once in {@link #assemble}: its counters, connection, stream check
 * (JetStream only), failed store (JetStream only), dispatcher and publisher (with a queue dir) or
 * direct publishing (without), and the intake every event enters by. {@link NatsTarget} coordinates
 * them.
 */
record TargetParts(TargetCounters counters, Verdict verdict, TargetConnection link, Optional<StreamCheck> check,
                   Optional<FailedEventStore> failedStore, Optional<Dispatcher> dispatcher,
                   Optional<Publisher> publisher, Intake intake) {

    static TargetParts assemble(TargetConfig config, TargetRuntime runtime, Optional<QueueStore> queue) {
        String target = config.displayId();
        TargetCounters counters = new TargetCounters(runtime.clock());
        LifecycleListener events = LifecycleListener.fanOut(new DeliveryLog(), counters, runtime.listener());
        Verdict verdict = new Verdict();
        EntrySubjects subjects = new EntrySubjects(config.subjectTemplate(), config.id());
        OutcomeClassifier classifier = config.jetstreamEnabled()
            ? OutcomeClassifier.forJetStream(config.streamName().orElseThrow())
            : OutcomeClassifier.forCore();
        Optional<FailedEventStore> failedStore = config.jetstreamEnabled()
            ? Optional.of(FailedEventStore.open(config.queuePath().orElseThrow(), target,
                new FailedEventStore.Limits(config.failedMaxRecords(), config.failedMaxAge()), runtime.clock()))
            : Optional.empty();
        JetStreamApi api = ConnectionSettings.from(config).jetStreamApi();
        TargetConnectionHooks hooks = new TargetConnectionHooks(target, events);
        TargetConnection link = new TargetConnection(listener -> connectionFactory(config, runtime, listener), hooks);
        Optional<StreamCheck> check = config.jetstreamEnabled()
            ? Optional.of(new StreamCheck(target, config.streamName().orElseThrow(),
                config.subjectTemplate().captureSpace(), (int) config.ackTimeout().toSeconds(), api, verdict, classifier,
                events))
            : Optional.empty();
        StreamConcurrency concurrency = config.kind() == TargetKind.NOTIFY
            ? runtime.notifyConcurrency() : StreamConcurrency.unlimited();
        DeliveryContext ctx = new DeliveryContext(target, subjects, config.streamName().orElse(""),
            queue.orElse(null), runtime.clock(), runtime.sleeper(), new RetrySchedule(runtime.backoffScale()),
            verdict, classifier, concurrency, config.ackTimeout(), config.publishWindow(), failedStore, events,
            () -> capturingStream(link, config, api), counters::newestSeq,
            config.order() == dev.jetsink.OrderMode.KEY ? config.queuePath() : Optional.empty());
        OutcomeHandling outcomes = new OutcomeHandling(ctx);
        Optional<Publisher> publisher = queue.map(q -> check.isPresent()
            ? new JetStreamPublisher(link, check.get(), classifier, subjects, config.format(), runtime.tracing(), target,
                config.order() == dev.jetsink.OrderMode.KEY, counters.subjectRefusals())
            : new CorePublisher(link, subjects, config.format(), runtime.tracing(), target));
        Optional<Dispatcher> dispatcher = publisher.map(p -> new Dispatcher(ctx, p, outcomes));
        hooks.attach(outcomes, publisher, dispatcher);
        Optional<DirectPublish> direct = queue.isPresent() ? Optional.empty()
            : Optional.of(new DirectPublish(link, subjects, config.format(), runtime.tracing(), target));
        Intake intake = new Intake(target, config.kind(), config.id(), config.msgIdMode(), config.format(), config.order(),
            config.queueLimit(), queue,
            direct, dispatcher, subjects, runtime.tracing(), counters);
        return new TargetParts(counters, verdict, link, check, failedStore, dispatcher, publisher, intake);
    }

    private static ConnectionFactory connectionFactory(TargetConfig c, TargetRuntime runtime,
                                                       io.nats.client.ConnectionListener listener) {
        return ConnectionFactory.builder(ConnectionSettings.from(c))
            .options(runtime.natsOptions())
            .connectionName("jetsink " + c.displayId())
            // jnats cancels requests older than this; it must never cut a publish short of the
            // ack timeout (DESIGN.md "Delivery").
            .requestCleanupInterval(c.ackTimeout().plusSeconds(30))
            .connectionListener(listener)
            .errorListener(new NatsErrorLog(c.displayId()))
            .build();
    }

    /** The stream that captures the target's subjects, if any (named when a publish met another stream). */
    private static Optional<String> capturingStream(TargetConnection link, TargetConfig config, JetStreamApi api) {
        return link.current().flatMap(c -> {
            try {
                return c.jetStreamManagement(api.options()).getStreamNames(config.subjectTemplate().captureSpace()).stream().findFirst();
            } catch (Exception e) {
                return Optional.empty();
            }
        });
    }
}
