package dev.jetsink.server.admin;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jetsink.ConfigProblem;
import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.config.TargetValidation;
import dev.jetsink.internal.config.TargetValidator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the request bodies of the admin API (docs/RELIABILITY.md "Fuzzing"): a failed-record
 * replay or purge request ({@link ReplayJson#parse}) is read or refused with an
 * {@link IllegalArgumentException} naming the fault (the API answers it with 400), and a target
 * PUT's {@code key_values} ({@link AdminHandler#keyValues}) is read or refused without an
 * exception, then validated as the PUT validates it before any connection: problems with
 * messages, and no password or token value quoted in them.
 */
class AdminBodyFuzzTest {
    private static final String MARKER = "Qv7secretMarker";

    @FuzzTest(maxDuration = "10m")
    void replayRequest(byte[] body) {
        try {
            ReplayJson.Request request = ReplayJson.parse(body);
            assertThat(ReplayJson.parse(ReplayJson.body(request))).as("the request written back reads the same")
                .isEqualTo(request);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).as("a 400 says why").isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "10m")
    void targetKeyValues(byte[] body) {
        Optional<Map<String, String>> pairs = AdminHandler.keyValues(body);
        if (pairs.isEmpty()) {
            return; // answered 400 with the expected body shape
        }
        Map<String, String> marked = marked(pairs.get());
        boolean markerOnlyInSecrets = marked.entrySet().stream()
            .filter(e -> !isSecret(e.getKey()))
            .noneMatch(e -> e.getKey().contains(MARKER) || e.getValue().contains(MARKER));
        for (TargetKind kind : TargetKind.values()) {
            TargetValidation v = TargetValidator.validateKeyValues(kind, "fuzz", marked);
            List<ConfigProblem> problems = new ArrayList<>(v.errors());
            problems.addAll(v.warnings());
            for (ConfigProblem p : problems) {
                assertThat(p.message()).isNotBlank();
                if (markerOnlyInSecrets) {
                    assertThat(p.describe()).as("a %s quotes a secret", p.category()).doesNotContain(MARKER);
                }
            }
            if (markerOnlyInSecrets) {
                v.target().ifPresent(t -> assertThat(t.toString()).doesNotContain(MARKER));
            }
        }
    }

    /**
     * The pairs with every password and token value prefixed by a marker, so that a secret in a
     * message is found whatever the secret (a short one may rightly occur in a message's words).
     */
    private static Map<String, String> marked(Map<String, String> pairs) {
        Map<String, String> out = new LinkedHashMap<>(pairs);
        out.replaceAll((name, value) -> isSecret(name) && !value.isBlank() ? MARKER + value : value);
        return out;
    }

    private static boolean isSecret(String name) {
        return ConfigKey.fromKeyName(name).map(ConfigKey::isSecret).orElse(false);
    }
}
