package dev.jetsink.server.ingest;

import dev.jetsink.event.MalformedEventException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a request that is a CloudEvent keeps, and what it is refused for. */
class IncomingCloudEventTest {

    private static final byte[] S3 = "{\"Records\":[]}".getBytes(StandardCharsets.UTF_8);

    @Test
    void binaryModeKeepsEveryCeHeaderLowerCasedAndDecoded() throws Exception {
        IncomingCloudEvent e = IncomingCloudEvent.of(HttpFields.build().add("Content-Type", "application/json")
            .add("CE-SpecVersion", "1.0").add("ce-id", "r.1").add("ce-subject", "a%20b/caf%C3%A9")
            .add("ce-type", "com.amazonaws.ObjectCreated:Put"), S3);
        assertThat(e.attributes()).containsExactly(Map.entry("specversion", "1.0"), Map.entry("id", "r.1"),
            Map.entry("subject", "a b/caf\u00e9"), Map.entry("type", "com.amazonaws.ObjectCreated:Put"));
        assertThat(e.body()).isSameAs(S3);
    }

    @Test
    void aRequestWithoutCeSpecversionIsAnOrdinaryOneWhateverElseItCarries() throws Exception {
        IncomingCloudEvent e = IncomingCloudEvent.of(HttpFields.build().add("ce-id", "x").add("ce-Bad_Name", "y"), S3);
        assertThat(e.attributes()).isEmpty();
        assertThat(e.body()).isSameAs(S3);
    }

    @Test
    void structuredModeTakesDataAsTheBodyAndTheRestAsAttributes() throws Exception {
        byte[] body = ("{\"specversion\":\"1.0\",\"id\":\"e1\",\"source\":\"/s\",\"type\":\"t\",\"xcount\":3,"
            + "\"data\":{\"Records\":[]}}").getBytes(StandardCharsets.UTF_8);
        IncomingCloudEvent e = IncomingCloudEvent.of(
            HttpFields.build().add("Content-Type", "application/cloudevents+json; charset=UTF-8"), body);
        assertThat(e.attributes()).containsEntry("id", "e1").containsEntry("xcount", "3").doesNotContainKey("data");
        assertThat(new String(e.body(), StandardCharsets.UTF_8)).isEqualTo("{\"Records\":[]}");
    }

    @Test
    void whatIsNotAnAcceptableCloudEventIsRefusedWithItsReason() {
        assertThatThrownBy(() -> IncomingCloudEvent.of(HttpFields.build().add("ce-specversion", "0.3"), S3))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("specversion \"0.3\"");
        assertThatThrownBy(() -> IncomingCloudEvent.of(HttpFields.build().add("ce-specversion", "1.0")
            .add("ce-bad_name", "v"), S3)).hasMessageContaining("lower-case letters and digits");
        assertThatThrownBy(() -> IncomingCloudEvent.of(HttpFields.build().add("ce-specversion", "1.0")
            .add("ce-id", "%C3"), S3)).hasMessageContaining("not UTF-8");
        assertThatThrownBy(() -> IncomingCloudEvent.of(HttpFields.build()
            .add("Content-Type", "application/cloudevents-batch+json"), S3)).hasMessageContaining("batched mode");
        assertThatThrownBy(() -> IncomingCloudEvent.of(HttpFields.build().add("Content-Type", "application/cloudevents+json"),
            "{\"specversion\":\"1.0\",\"data_base64\":\"e30=\",\"data\":{}}".getBytes(StandardCharsets.UTF_8)))
            .hasMessageContaining("data_base64");
        assertThatThrownBy(() -> IncomingCloudEvent.of(HttpFields.build().add("Content-Type", "application/cloudevents+json"),
            "{\"specversion\":\"1.0\",\"data\":\"text\"}".getBytes(StandardCharsets.UTF_8)))
            .hasMessageContaining("data must be");
        assertThatThrownBy(() -> IncomingCloudEvent.of(HttpFields.build().add("Content-Type", "application/cloudevents+json"),
            "{\"data\":{}}".getBytes(StandardCharsets.UTF_8))).hasMessageContaining("without specversion");
    }

    @Test
    void eachOfSeveralEventsInOneCloudEventGetsItsOwnId() throws Exception {
        IncomingCloudEvent e = IncomingCloudEvent.of(HttpFields.build().add("ce-specversion", "1.0").add("ce-id", "r"), S3);
        assertThat(e.forEvent(0, 1)).containsEntry("id", "r");
        assertThat(e.forEvent(0, 3)).containsEntry("id", "r.1");
        assertThat(e.forEvent(2, 3)).containsEntry("id", "r.3");
    }
}
