package dev.jetsink.internal.event;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CloudEvents attributes as stored and as {@code ce-} header values. */
class CloudEventAttributesTest {

    @Test
    void headerValuesArePercentEncodedWhereTheBindingSaysAndDecodeBack() {
        assertThat(CloudEventAttributes.encodeHeaderValue("com.amazonaws.s3.ObjectCreated:Put"))
            .as("printable ASCII stays").isEqualTo("com.amazonaws.s3.ObjectCreated:Put");
        assertThat(CloudEventAttributes.encodeHeaderValue("a b\"c%d\u00e9\n"))
            .isEqualTo("a%20b%22c%25d%C3%A9%0A");
        for (String v : new String[] {"a b\"c%d\u00e9\n", "%", "100%", "\ud83d\ude00 x", ""}) {
            assertThat(CloudEventAttributes.decodeHeaderValue(CloudEventAttributes.encodeHeaderValue(v))).isEqualTo(v);
        }
        assertThat(CloudEventAttributes.decodeHeaderValue("50%zz")).as("not an escape: kept").isEqualTo("50%zz");
        assertThatThrownBy(() -> CloudEventAttributes.decodeHeaderValue("%C3"))
            .hasMessageContaining("not UTF-8");
    }

    @Test
    void storedFormKeepsOrderAndValuesAndRefusesBadNames() {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("specversion", "1.0");
        a.put("id", "r.1");
        a.put("xregion", "eu \"1\"");
        Optional<String> json = CloudEventAttributes.toJson(a);
        assertThat(json).contains("{\"specversion\":\"1.0\",\"id\":\"r.1\",\"xregion\":\"eu \\\"1\\\"\"}");
        assertThat(CloudEventAttributes.fromJson(json)).containsExactlyEntriesOf(a);
        assertThat(CloudEventAttributes.toJson(Map.of())).isEmpty();
        assertThat(CloudEventAttributes.fromJson(Optional.empty())).isEmpty();

        assertThat(CloudEventAttributes.nameProblem("Type")).isPresent();
        assertThat(CloudEventAttributes.nameProblem("x_y")).isPresent();
        assertThat(CloudEventAttributes.nameProblem("a".repeat(21))).isPresent();
        assertThat(CloudEventAttributes.nameProblem("traceparent")).isEmpty();
        assertThatThrownBy(() -> CloudEventAttributes.copy(Map.of("Bad-Name", "v")))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CloudEventAttributes.toJson(Map.of("big", "x".repeat(20_000))))
            .hasMessageContaining("longer than");
    }
}
