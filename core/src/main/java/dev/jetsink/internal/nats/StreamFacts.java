package dev.jetsink.internal.nats;

import io.nats.client.api.PersistMode;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What stream validation needs to know about a stream, taken from one stream-info lookup, so the
 * rules in {@link StreamValidator} are pure logic testable without a server.
 *
 * @param name              stream name
 * @param subjects          its subject filters
 * @param noAck             {@code no_ack}: the server never acknowledges publishes
 * @param sealed            sealed: the stream rejects writes
 * @param mirror            the stream mirrors another and accepts no publishes
 * @param duplicateWindow   the dedupe window ({@link Duration#ZERO} when the server reports none)
 * @param replicas          replica count
 * @param storage           file or memory storage
 * @param maxMessageSize    the stream's max message size in bytes, -1 when unlimited
 * @param counter           {@code allow_msg_counter} (nats-server 2.12+): the stream refuses every
 *                          publish that is not a counter increment
 * @param persistAsync      {@code persist_mode: async} (nats-server 2.12+, R1 file streams): the
 *                          server acknowledges a publish before it has written it
 */
public record StreamFacts(String name, List<String> subjects, boolean noAck, boolean sealed, boolean mirror,
                          Duration duplicateWindow, int replicas, Storage storage, long maxMessageSize,
                          boolean counter, boolean persistAsync) {

    /** Storage type of a stream. */
    public enum Storage { FILE, MEMORY }

    public StreamFacts {
        Objects.requireNonNull(name, "name");
        subjects = List.copyOf(subjects);
        Objects.requireNonNull(duplicateWindow, "duplicateWindow");
        Objects.requireNonNull(storage, "storage");
    }

    /** Facts of a stream with neither of the 2.12 settings ({@code counter}, {@code persistAsync}). */
    public StreamFacts(String name, List<String> subjects, boolean noAck, boolean sealed, boolean mirror,
                       Duration duplicateWindow, int replicas, Storage storage, long maxMessageSize) {
        this(name, subjects, noAck, sealed, mirror, duplicateWindow, replicas, storage, maxMessageSize, false, false);
    }

    /** The facts of a stream-info answer. */
    public static StreamFacts from(StreamInfo info) {
        StreamConfiguration config = info.getConfiguration();
        Duration window = config.getDuplicateWindow() == null ? Duration.ZERO : config.getDuplicateWindow();
        List<String> subjects = config.getSubjects() == null ? List.of() : config.getSubjects();
        Storage storage = config.getStorageType() == StorageType.Memory ? Storage.MEMORY : Storage.FILE;
        return new StreamFacts(config.getName(), subjects, config.getNoAck(), config.getSealed(),
                config.getMirror() != null, window, config.getReplicas(), storage, config.getMaximumMessageSize(),
                config.getAllowMessageCounter(), config.getPersistMode() == PersistMode.Async);
    }
}
