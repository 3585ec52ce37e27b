package dev.jetsink.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The {@code PUT} body of the admin API: {@code {"key_values":[{"key":..,"value":..}]}}
 * (DESIGN.md "Admin API").
 */
class AdminBodyTest {

    @Test
    void keyValuesBodyTakesScalarValuesAsTextAndRefusesOtherShapes() {
        byte[] ok = "{\"key_values\":[{\"key\":\"queue_limit\",\"value\":500},{\"key\":\"comment\",\"value\":null}]}"
            .getBytes(StandardCharsets.UTF_8);
        assertThat(AdminHandler.keyValues(ok)).hasValueSatisfying(kv ->
            assertThat(kv).containsEntry("queue_limit", "500").containsEntry("comment", ""));
        for (String bad : new String[] {"[]", "{}", "not json", "{\"key_values\":[{\"key\":1,\"value\":\"x\"}]}",
                "{\"key_values\":[{\"key\":\"subject\",\"value\":{\"nested\":true}}]}"}) {
            assertThat(AdminHandler.keyValues(bad.getBytes(StandardCharsets.UTF_8))).as(bad).isEmpty();
        }
    }
}
