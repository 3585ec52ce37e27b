package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.internal.nats.Verdict;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.internal.time.Deadline;
import io.nats.client.Connection;
import java.util.Optional;

/**
 * A target's health (DESIGN.md "Status"): derived from the connection and the last verdict.
 *
 * @param target display id
 * @param status online, offline, error or disabled
 * @param reason why, for anything but online
 */
public record TargetHealth(String target, Status status, String reason) {

    public enum Status {
        ONLINE, OFFLINE, ERROR, DISABLED;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The health of a target: an error while it takes no events ({@code unavailable}), offline
     * without a connection (the reason is why the last attempt failed, e.g. refused credentials),
     * else online on the Core path or with a PASS verdict. While the verdict is UNSET, with
     * {@code validate} this runs one live validation bounded by the ack timeout; without it, it
     * reports the last validation's failure, or offline until a validation passes.
     */
    static TargetHealth of(TargetConfig config, Optional<String> unavailable, Optional<Connection> connection,
                           Optional<String> connectFailure, Optional<StreamCheck> check, Verdict verdict,
                           boolean validate) {
        String id = config.displayId();
        if (unavailable.isPresent()) {
            return new TargetHealth(id, Status.ERROR, unavailable.get());
        }
        if (connection.isEmpty()) {
            return new TargetHealth(id, Status.OFFLINE, connectFailure.orElse("not connected"));
        }
        if (check.isEmpty() || verdict.isPass()) {
            return new TargetHealth(id, Status.ONLINE, "");
        }
        if (!validate) {
            return check.get().failure().map(f -> new TargetHealth(id, Status.ERROR, "stream validation failed: " + f))
                .orElseGet(() -> new TargetHealth(id, Status.OFFLINE,
                    "connected; stream " + check.get().stream() + " not validated since (the next publish validates it)"));
        }
        ValidationResult r = check.get().validateNow(connection.get(), Deadline.after(config.ackTimeout()));
        if (r instanceof ValidationResult.Failed f) {
            boolean unreachable = f.has(ValidationResult.Cause.UNREACHABLE);
            return new TargetHealth(id, unreachable ? Status.OFFLINE : Status.ERROR,
                "stream validation failed: " + f.message());
        }
        return new TargetHealth(id, Status.ONLINE, "");
    }

    public boolean online() {
        return status == Status.ONLINE;
    }
}
