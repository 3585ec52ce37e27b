package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The shipped env file lists every setting of the key table, commented, with its
 * default, and each of its setting lines is valid once uncommented.
 */
class ConfigTemplateTest {
    private static final Pattern SETTING = Pattern.compile("#[A-Z_][A-Z0-9_]*=.*");

    /* An enabled notify and audit target, so each target key of the template configures something. */
    private static final String TARGETS = String.join("\n",
        "RUSTFS_NOTIFY_NATS_ENABLE=on", "RUSTFS_NOTIFY_NATS_ADDRESS=127.0.0.1:4222", "RUSTFS_NOTIFY_NATS_SUBJECT=s3.events",
        "RUSTFS_AUDIT_NATS_ENABLE=on", "RUSTFS_AUDIT_NATS_ADDRESS=127.0.0.1:4222", "RUSTFS_AUDIT_NATS_SUBJECT=s3.audit", "");
    private static final String ENABLED = "RUSTFS_NOTIFY_NATS_ENABLE=on\nRUSTFS_AUDIT_NATS_ENABLE=on\n";

    @TempDir
    Path dir;

    @Test
    void everySettingAndEveryTargetKeyOfBothKindsIsListedWithItsDefault() {
        String text = ConfigTemplate.render();
        for (GlobalSetting s : GlobalSetting.values()) {
            assertThat(text).contains("\n#" + s.variable() + "=" + s.defaultValue().orElse("") + "\n");
        }
        for (TargetKind kind : TargetKind.values()) {
            for (ConfigKey k : ConfigKey.values()) {
                if (k.hasEnvForm()) {
                    assertThat(text).contains("\n#" + kind.envPrefix() + k.name() + "=" + k.defaultValue().orElse("") + "\n");
                }
            }
        }
        assertThat(text.lines().filter(l -> !l.isBlank())).allSatisfy(l -> assertThat(l).startsWith("#"));
    }

    /*
     * Each NAME=value line of the template, uncommented on its own, on a file that enables a notify
     * and an audit target before it and (unless the line is an enable switch) again after it, so
     * that target keys configure a target: once as shipped, and once with a value where the
     * template leaves it empty. The only errors allowed are about that value (an empty address is
     * missing, "x" is no absolute path); never an unknown or unused key, nor another variable.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("templates")
    void everySettingLineUncommentedAloneIsValid(String name, String template) throws IOException {
        List<String> lines = template.lines().toList();
        List<Integer> settings = IntStream.range(0, lines.size())
            .filter(i -> SETTING.matcher(lines.get(i)).matches()).boxed().toList();
        assertThat(settings).hasSizeGreaterThan(GlobalSetting.values().length);
        for (int n : settings) {
            String shipped = lines.get(n).substring(1);
            for (String line : shipped.endsWith("=") ? List.of(shipped, shipped + "x") : List.of(shipped)) {
                StringBuilder file = new StringBuilder(TARGETS);
                for (int i = 0; i < lines.size(); i++) {
                    file.append(i == n ? line : lines.get(i)).append('\n');
                }
                if (!line.contains("_ENABLE=")) {
                    file.append(ENABLED);
                }
                String variable = line.substring(0, line.indexOf('='));
                assertThat(problems(file.toString())).as("uncommented: " + line)
                    .allSatisfy(p -> assertThat(aboutTheValueOf(p, variable)).as(p.describe()).isTrue());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("templates")
    void everySettingLineUncommentedTogetherIsValid(String name, String template) throws IOException {
        StringBuilder file = new StringBuilder(TARGETS);
        List<String> uncommented = template.lines().map(l -> SETTING.matcher(l).matches() ? l.substring(1) : l).toList();
        uncommented.forEach(l -> file.append(l).append('\n'));
        file.append(ENABLED);
        // as shipped, the only errors are the target keys left empty that need a value
        assertThat(problems(file.toString())).allSatisfy(p -> {
            assertThat(uncommented).as(p.describe()).contains(p.variable() + "=");
            assertThat(p.message()).endsWith(" is required");
        });
    }

    /* A value error that names the variable, or for a target key its key name ("username and password ..."). */
    private static boolean aboutTheValueOf(ConfigProblem p, String variable) {
        String key = variable;
        for (TargetKind kind : TargetKind.values()) {
            if (variable.startsWith(kind.envPrefix())) {
                key = variable.substring(kind.envPrefix().length()).toLowerCase(java.util.Locale.ROOT);
            }
        }
        return p.category() == ConfigProblem.Category.VALUE && (p.describe().contains(variable) || p.message().contains(key));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("templates")
    void theTemplateAsShippedIsValid(String name, String template) throws IOException {
        assertThat(problems(template)).isEmpty();
    }

    @Test
    void thePackagedFileKeepsAdminTargetsAndQueuesInTheStateDirectory() throws IOException {
        String packaged = ConfigTemplate.renderForStateDirectory(Path.of("/var/lib/jetsink"));
        assertThat(packaged.lines().filter(l -> !l.isBlank() && !l.startsWith("#")))
            .containsExactly("JETSINK_DATA_DIR=/var/lib/jetsink/data",
                "RUSTFS_NOTIFY_NATS_ENABLE=off", "RUSTFS_NOTIFY_NATS_QUEUE_DIR=/var/lib/jetsink",
                "RUSTFS_AUDIT_NATS_ENABLE=off", "RUSTFS_AUDIT_NATS_QUEUE_DIR=/var/lib/jetsink");
        // switching a target on is the only edit needed for its queue to be there
        String enabled = packaged.replace("RUSTFS_NOTIFY_NATS_ENABLE=off", "RUSTFS_NOTIFY_NATS_ENABLE=on")
            + "RUSTFS_NOTIFY_NATS_ADDRESS=127.0.0.1:4222\nRUSTFS_NOTIFY_NATS_SUBJECT=s3.events\n";
        LoadedConfig loaded = ConfigLoader.load(Map.of(),
            Optional.of(Files.writeString(dir.resolve("packaged.env"), enabled)));
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().daemon().dataDir()).contains(Path.of("/var/lib/jetsink/data"));
        assertThat(loaded.config().targets()).singleElement()
            .satisfies(t -> assertThat(t.queuePath()).contains(Path.of("/var/lib/jetsink/notify-nats-_")));
    }

    static Stream<Arguments> templates() {
        return Stream.of(arguments("config-template", ConfigTemplate.render()),
            arguments("config-template --state-dir /var/lib/jetsink",
                ConfigTemplate.renderForStateDirectory(Path.of("/var/lib/jetsink"))));
    }

    private List<ConfigProblem> problems(String text) throws IOException {
        Path file = Files.writeString(dir.resolve("jetsink.env"), text);
        return ConfigLoader.load(Map.of(), Optional.of(file)).errors();
    }
}
