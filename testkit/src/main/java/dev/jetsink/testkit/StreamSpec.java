package dev.jetsink.testkit;

import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The parts of a JetStream stream configuration tests vary; everything else is the server's
 * default.
 *
 * @param name stream name
 * @param subjects subjects the stream captures
 * @param storage file (default) or memory
 * @param replicas 1 (default) or 3 on a {@link NatsCluster}
 * @param noAck whether the stream stores without acknowledging ({@code no_ack})
 * @param duplicateWindow the dedupe window, if not the server default (2 min or max age)
 * @param maxMsgSize per-message size limit in bytes, if any
 * @param maxAge message age limit, if any
 * @param maxMsgs message count limit, if any
 * @param discardNew whether a full stream rejects new messages (instead of dropping old ones)
 */
public record StreamSpec(String name, List<String> subjects, StorageType storage, int replicas,
                         boolean noAck, Optional<Duration> duplicateWindow,
                         OptionalLong maxMsgSize, Optional<Duration> maxAge,
                         OptionalLong maxMsgs, boolean discardNew) {

    /** Copies the subject list so the spec stays immutable. */
    public StreamSpec {
        subjects = List.copyOf(subjects);
    }

    /** A builder for a file-stored R1 stream capturing {@code subjects}. */
    public static Builder of(String name, String... subjects) {
        return new Builder(name, Arrays.asList(subjects));
    }

    /** The jnats configuration this spec stands for. */
    public StreamConfiguration toConfiguration() {
        StreamConfiguration.Builder b = StreamConfiguration.builder()
                .name(name).subjects(subjects).storageType(storage).replicas(replicas)
                .noAck(noAck)
                .discardPolicy(discardNew ? DiscardPolicy.New : DiscardPolicy.Old);
        duplicateWindow.ifPresent(b::duplicateWindow);
        maxMsgSize.ifPresent(bytes -> b.maximumMessageSize(Math.toIntExact(bytes)));
        maxAge.ifPresent(b::maxAge);
        maxMsgs.ifPresent(b::maxMessages);
        return b.build();
    }

    /** Builds a {@link StreamSpec}; unset limits stay at the server's defaults. */
    public static final class Builder {
        private final String name;
        private final List<String> subjects;
        private StorageType storage = StorageType.File;
        private int replicas = 1;
        private boolean noAck;
        private Optional<Duration> duplicateWindow = Optional.empty();
        private OptionalLong maxMsgSize = OptionalLong.empty();
        private Optional<Duration> maxAge = Optional.empty();
        private OptionalLong maxMsgs = OptionalLong.empty();
        private boolean discardNew;

        private Builder(String name, List<String> subjects) {
            this.name = name;
            this.subjects = subjects;
        }

        /** File (default) or memory storage. */
        public Builder storage(StorageType storage) {
            this.storage = storage;
            return this;
        }

        /** Number of replicas (default 1). */
        public Builder replicas(int replicas) {
            this.replicas = replicas;
            return this;
        }

        /** Store without acknowledging publishes. */
        public Builder noAck(boolean noAck) {
            this.noAck = noAck;
            return this;
        }

        /** The dedupe window. */
        public Builder duplicateWindow(Duration window) {
            this.duplicateWindow = Optional.of(window);
            return this;
        }

        /** The per-message size limit in bytes. */
        public Builder maxMsgSize(long bytes) {
            this.maxMsgSize = OptionalLong.of(bytes);
            return this;
        }

        /** The message age limit. */
        public Builder maxAge(Duration age) {
            this.maxAge = Optional.of(age);
            return this;
        }

        /** The message count limit. */
        public Builder maxMsgs(long count) {
            this.maxMsgs = OptionalLong.of(count);
            return this;
        }

        /** Reject new messages when full ({@code discard: new}). */
        public Builder discardNew(boolean discardNew) {
            this.discardNew = discardNew;
            return this;
        }

        /** The spec. */
        public StreamSpec build() {
            return new StreamSpec(name, subjects, storage, replicas, noAck, duplicateWindow,
                    maxMsgSize, maxAge, maxMsgs, discardNew);
        }
    }
}
