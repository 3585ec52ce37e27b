package dev.jetsink.internal.failed;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link FailedEventStore#maintain()} on every registered store at a fixed interval (60 s by
 * default, DESIGN.md "Failed-events store"), on a scheduler of its own so that a busy or stuck
 * dispatcher never delays expiry. Register the store of every target, including one whose init
 * failed: its failed records must still expire and its count still reconcile.
 */
public final class FailedStoreMaintenance implements AutoCloseable {
    /** The default maintenance interval. */
    public static final Duration INTERVAL = Duration.ofSeconds(60);

    private static final Logger log = LoggerFactory.getLogger(FailedStoreMaintenance.class);

    private final Set<FailedEventStore> stores = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService scheduler;

    private FailedStoreMaintenance(Duration interval) {
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jetsink-failed-store-maintenance");
            t.setDaemon(true);
            return t;
        });
        long millis = interval.toMillis();
        scheduler.scheduleWithFixedDelay(this::runOnce, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Starts maintenance every {@link #INTERVAL}. */
    public static FailedStoreMaintenance start() {
        return start(INTERVAL);
    }

    /** Starts maintenance every {@code interval} (shorter intervals are for tests). */
    public static FailedStoreMaintenance start(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        return new FailedStoreMaintenance(interval);
    }

    /** Includes {@code store} in every following pass. */
    public void add(FailedEventStore store) {
        stores.add(Objects.requireNonNull(store, "store"));
    }

    /** Stops maintaining {@code store}, e.g. when its target is removed. */
    public void remove(FailedEventStore store) {
        stores.remove(store);
    }

    /** One pass over every registered store; a failing store never stops the others. */
    void runOnce() {
        for (FailedEventStore store : stores) {
            try {
                store.maintain();
            } catch (IOException e) {
                log.warn("failed store maintenance could not scan its directory, will retry: target=\"{}\" dir={} reason={}",
                        store.target(), store.directory(), e.toString());
            } catch (RuntimeException e) {
                // An exception escaping a periodic task would silently cancel every later run.
                log.error("failed store maintenance failed unexpectedly, will retry: target=\"{}\"", store.target(), e);
            }
        }
    }

    /** Stops the scheduler, letting a pass in progress finish (it holds a store's guard). */
    @Override
    public void close() {
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            scheduler.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
