package dev.jetsink.server.cli;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.SubjectTemplate;
import dev.jetsink.internal.nats.DuplicateWindow;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A stream that satisfies the stream requirements (DESIGN.md "Stream validation and verdict") for
 * one target: file storage, the given replicas, the subject captured literally, acknowledgements
 * on, and the duplicate window exactly the required one for the ack timeout
 * ({@link DuplicateWindow}). Both the printed JSON and {@code --apply} come from
 * {@link #toConfiguration()}, so what an operator reads is what gets created.
 *
 * @param stream         stream name
 * @param subject        the target's publish subject (literal, no wildcards)
 * @param ackTimeoutSecs the target's {@code jetstream_ack_timeout_secs}
 * @param replicas       replica count, 1..5
 * @param limits         the stream's age and size limits, none by default
 */
public record StreamPlan(String stream, String subject, int ackTimeoutSecs, int replicas, StreamLimits limits) {

    /** Below this many replicas an acknowledged event does not survive losing a node. */
    static final int RECOMMENDED_REPLICAS = 3;


    public StreamPlan {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(limits, "limits");
        // the server's own rule (duplicate window <= max age), checked here so the operator reads why
        limits.maxAge().filter(age -> age.compareTo(DuplicateWindow.required(ackTimeoutSecs)) < 0).ifPresent(age -> {
            throw new IllegalArgumentException("--max-age " + StreamLimits.formatAge(age) + " is shorter than the required"
                + " duplicate window of " + DuplicateWindow.required(ackTimeoutSecs).toSeconds() + "s (a stream's window"
                + " may not exceed its max age); give at least that");
        });
    }

    /**
     * The subject filter the stream must list: the subject itself, or for a template
     * ({@code rustfs.events.{bucket}}) every subject it yields ({@code rustfs.events.*}).
     */
    String streamSubject() {
        return SubjectTemplate.parseForEitherKind("subject", subject).captureSpace();
    }

    /** Whether the subject is a template (its stream subject holds wildcards). */
    boolean templated() {
        return SubjectTemplate.parseForEitherKind("subject", subject).hasPlaceholders();
    }

    /** The required duplicate window. */
    Duration duplicateWindow() {
        return DuplicateWindow.required(ackTimeoutSecs);
    }

    /** How the window is made up, e.g. {@code 5 × 30 s + 60 s + 64 s}. */
    String windowFormula() {
        return DuplicateWindow.ATTEMPTS_PER_CYCLE + " attempts × " + ackTimeoutSecs + " s ack timeout + "
            + DuplicateWindow.REALIZED_BACKOFF_SECS + " s backoff (4+8+16+32) + "
            + DuplicateWindow.HEADROOM_SECS + " s headroom";
    }

    /** The jnats stream configuration. */
    StreamConfiguration toConfiguration() {
        StreamConfiguration.Builder b = StreamConfiguration.builder();
        limits.maxAge().ifPresent(b::maxAge);
        limits.maxBytes().ifPresent(b::maxBytes);
        return b
            .name(stream)
            .subjects(streamSubject())
            .storageType(StorageType.File)
            .retentionPolicy(RetentionPolicy.Limits)
            .discardPolicy(DiscardPolicy.Old)
            .replicas(replicas)
            .noAck(false)
            .duplicateWindow(duplicateWindow())
            .build();
    }

    /**
     * The configuration as the NATS server API spells it ({@code duplicate_window} in
     * nanoseconds), pretty-printed; accepted by {@code nats stream add --config}. jnats leaves
     * {@code no_ack} out when false; it is written explicitly because the requirement is on it.
     */
    String configJson() {
        return pretty(configNode());
    }

    /**
     * {@link #configJson()} with a {@code warnings} array ({@link #warnings()}, empty when there is
     * none), for {@code --json}: a script reads the warnings the report would print, and
     * {@code nats stream add --config} ignores the field, as it ignores every field it does not know.
     */
    String configJsonWithWarnings() {
        ObjectNode node = configNode();
        ArrayNode array = node.putArray("warnings");
        warnings().forEach(array::add);
        return pretty(node);
    }

    /** What the plan leaves to chance though the stream would work: today only a stream without limits. */
    List<String> warnings() {
        return limits.unlimited() ? List.of(NO_LIMITS) : List.of();
    }

    static final String NO_LIMITS = "no --max-age or --max-bytes: the stream keeps every event for ever and grows"
        + " until the server's disk or account limit stops it";

    private static String pretty(ObjectNode node) {
        try {
            return Json.PRETTY.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings and numbers did not serialize", e);
        }
    }

    private ObjectNode configNode() {
        try {
            ObjectNode node = (ObjectNode) Json.READER.readTree(toConfiguration().toJson());
            node.put("no_ack", false);
            return node;
        } catch (JsonProcessingException e) {
            // jnats produced the text itself; failing to read it back is a programming error.
            throw new IllegalStateException("jnats stream configuration JSON did not parse", e);
        }
    }

    /**
     * The {@code nats} CLI command creating the same stream; {@code --defaults} answers the
     * prompts for everything not given (other limits unlimited, as in the JSON).
     */
    String natsCliCommand() {
        return "nats stream add " + stream
            + " --subjects " + (templated() ? "'" + streamSubject() + "'" : streamSubject())
            + " --storage file --retention limits --discard old"
            + " --replicas " + replicas
            + " --dupe-window " + duplicateWindow().toSeconds() + "s"
            + limits.maxAge().map(a -> " --max-age " + StreamLimits.goDuration(a)).orElse("")
            + limits.maxBytes().map(n -> " --max-bytes " + n).orElse("")
            + " --ack --defaults";
    }

    /** Whether the plan has fewer replicas than surviving a node loss needs. */
    boolean belowRecommendedReplicas() {
        return replicas < RECOMMENDED_REPLICAS;
    }
}
