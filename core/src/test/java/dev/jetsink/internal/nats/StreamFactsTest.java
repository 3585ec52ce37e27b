package dev.jetsink.internal.nats;

import io.nats.client.api.StreamInfo;
import io.nats.client.support.JsonParser;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Stream-info JSON as nats-server 2.9 answers {@code $JS.API.STREAM.INFO}. */
class StreamFactsTest {

    private static StreamInfo info(String configFields) {
        String json = "{\"type\":\"io.nats.jetstream.api.v1.stream_info_response\",\"created\":\"2026-01-01T00:00:00Z\","
                + "\"config\":{\"name\":\"RUSTFS_EVENTS\"," + configFields + "},"
                + "\"state\":{\"messages\":0,\"bytes\":0,\"first_seq\":0,\"last_seq\":0,\"consumer_count\":0}}";
        return new StreamInfo(JsonParser.parseUnchecked(json));
    }

    @Test
    void factsAreReadFromStreamInfo() {
        StreamFacts facts = StreamFacts.from(info("\"subjects\":[\"rustfs.>\"],\"storage\":\"memory\",\"num_replicas\":3,"
                + "\"duplicate_window\":274000000000,\"max_msg_size\":1024,\"no_ack\":true,\"sealed\":true"));

        assertThat(facts).isEqualTo(new StreamFacts("RUSTFS_EVENTS", List.of("rustfs.>"), true, true, false,
                Duration.ofSeconds(274), 3, StreamFacts.Storage.MEMORY, 1024));
    }

    @Test
    void aMirrorIsRecognised() {
        StreamFacts facts = StreamFacts.from(info("\"storage\":\"file\",\"num_replicas\":1,"
                + "\"mirror\":{\"name\":\"ORIGIN\"}"));
        assertThat(facts.mirror()).isTrue();
        assertThat(facts.subjects()).isEmpty();
    }

    @Test
    void absentDuplicateWindowReadsAsZeroAndFailsValidation() {
        StreamFacts facts = StreamFacts.from(info("\"subjects\":[\"rustfs.events\"],\"storage\":\"file\",\"num_replicas\":3"));
        assertThat(facts.duplicateWindow()).isEqualTo(Duration.ZERO);
        assertThat(facts.storage()).isEqualTo(StreamFacts.Storage.FILE);
        assertThat(new StreamValidator("RUSTFS_EVENTS", "rustfs.events", 30).validate(facts).passed()).isFalse();
    }
}
