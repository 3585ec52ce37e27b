package dev.jetsink.internal.config;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jetsink.ConfigProblem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes configuration as the daemon and {@code check-config} read it (docs/RELIABILITY.md
 * "Fuzzing"): a config file in systemd's env-file syntax under the environment. Whatever the file
 * and the variables say, {@link ConfigLoader#load} returns (it never throws for bad input), every
 * problem says what is wrong, and no problem, warning or printed config holds a secret: the
 * passwords and tokens are set to a marker the fuzzer's own text never contains.
 */
class ConfigLoaderFuzzTest {
    private static final String SECRET = "Qv7secretMarker";
    private static final Path DIR;

    static {
        try {
            DIR = Files.createTempDirectory("config-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final List<String> NAMES = names();
    private static final List<String> SECRET_NAMES = secretNames();

    @AfterAll
    static void removeFile() throws IOException {
        Files.deleteIfExists(DIR.resolve("jetsink.env"));
        Files.deleteIfExists(DIR);
    }

    @FuzzTest(maxDuration = "10m")
    void loadReportsProblemsWithoutQuotingSecrets(FuzzedDataProvider data) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        int n = data.consumeInt(0, 10);
        for (int i = 0; i < n; i++) {
            env.put(name(data), clean(data.consumeString(60)));
        }
        StringBuilder file = new StringBuilder();
        int lines = data.consumeInt(0, 10);
        for (int i = 0; i < lines; i++) {
            if (data.consumeInt(0, 3) == 0) {
                String quote = switch (data.consumeInt(0, 2)) {
                    case 0 -> "";
                    case 1 -> "'";
                    default -> "\"";
                };
                file.append(data.pickValue(SECRET_NAMES)).append('=').append(quote).append(SECRET).append(quote);
            } else if (data.consumeBoolean()) {
                file.append(name(data)).append('=').append(clean(data.consumeString(60)));
            } else {
                file.append(clean(data.consumeString(80)));
            }
            file.append(data.consumeBoolean() ? "\n" : "\r\n");
        }
        for (String secret : SECRET_NAMES) {
            if (data.consumeInt(0, 3) == 0) {
                env.put(secret, data.consumeBoolean() ? SECRET : " " + SECRET + " ");
            }
        }
        Path path = DIR.resolve("jetsink.env");
        Files.write(path, data.consumeBoolean() ? file.toString().getBytes(StandardCharsets.UTF_8)
            : withBytes(file.toString(), data.consumeRemainingAsBytes()));

        LoadedConfig loaded = ConfigLoader.load(env, data.consumeBoolean() ? Optional.of(path) : Optional.empty());

        List<ConfigProblem> problems = new ArrayList<>(loaded.errors());
        problems.addAll(loaded.config().warnings());
        for (ConfigProblem p : problems) {
            assertThat(p.message()).as("a problem says what is wrong").isNotBlank();
            assertThat(p.describe()).as("no secret in %s", p.category()).doesNotContain(SECRET);
        }
        assertThat(String.valueOf(loaded)).as("the loaded config printed").doesNotContain(SECRET);
    }

    /** The file's text with arbitrary bytes appended (not always UTF-8). */
    private static byte[] withBytes(String text, byte[] bytes) {
        byte[] head = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(head, head.length + bytes.length);
        System.arraycopy(bytes, 0, all, head.length, bytes.length);
        return all;
    }

    /** Fuzzer text never spells the secret, so a secret in a message can only have come from a secret. */
    private static String clean(String s) {
        String t = s;
        while (t.contains(SECRET)) {
            t = t.replace(SECRET, "");
        }
        return t;
    }

    private static String name(FuzzedDataProvider data) {
        return data.consumeInt(0, 4) == 0 ? clean(data.consumeString(30)) : data.pickValue(NAMES);
    }

    private static List<String> names() {
        List<String> out = new ArrayList<>();
        for (TargetKind kind : TargetKind.values()) {
            for (String suffix : List.of("", "PRIMARY", "B2")) {
                for (ConfigKey key : ConfigKey.values()) {
                    out.add(key.variable(kind, suffix));
                }
            }
        }
        for (GlobalSetting s : GlobalSetting.values()) {
            out.add(s.variable());
        }
        out.add("JETSINK_ADMIN_TOKN");
        return List.copyOf(out);
    }

    private static List<String> secretNames() {
        List<String> out = new ArrayList<>();
        for (TargetKind kind : TargetKind.values()) {
            for (String suffix : List.of("", "PRIMARY", "B2")) {
                for (ConfigKey key : ConfigKey.values()) {
                    if (key.isSecret()) {
                        out.add(key.variable(kind, suffix));
                    }
                }
            }
        }
        out.add(GlobalSetting.ADMIN_TOKEN.variable());
        out.add(GlobalSetting.INGEST_TOKEN.variable());
        return List.copyOf(out);
    }
}
