package dev.jetsink.internal.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped env file (issue #16) lists every setting of the key table, commented, with its default. */
class ConfigTemplateTest {

    @Test
    void everySettingAndEveryTargetKeyOfBothKindsIsListedWithItsDefault() {
        String text = ConfigTemplate.render();
        for (GlobalSetting s : GlobalSetting.values()) {
            assertThat(text).contains("\n#" + s.variable() + "=" + s.defaultValue().orElse("") + "\n");
        }
        for (TargetKind kind : TargetKind.values()) {
            for (ConfigKey k : ConfigKey.values()) {
                assertThat(text).contains("\n#" + kind.envPrefix() + k.name() + "=" + k.defaultValue().orElse("") + "\n");
            }
        }
        assertThat(text.lines().filter(l -> !l.isBlank())).allSatisfy(l -> assertThat(l).startsWith("#"));
    }
}
