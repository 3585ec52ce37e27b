package dev.jetsink.dist;

import dev.jetsink.server.ExitCode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The systemd unit as written in {@code dist/systemd/jetsink.service}, read as key=value lines of
 * its {@code [Service]} section: the settings that tie it to the code's exit codes.
 */
class ServiceUnitTest {
    private static final Path UNIT = Path.of("..").toAbsolutePath().normalize().resolve("dist/systemd/jetsink.service");

    @Test
    void aConfigurationErrorExitStopsTheRestartLoop() throws IOException {
        assertThat(values("RestartPreventExitStatus"))
            .as("the exit code of an invalid configuration, which a restart cannot fix")
            .containsExactly(String.valueOf(ExitCode.USAGE));
        assertThat(values("Restart")).containsExactly("on-failure");
    }

    @Test
    void theSandboxSettingsAreInTheUnit() throws IOException {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("ProtectKernelLogs", "true");
        expected.put("ProtectProc", "invisible");
        expected.put("PrivateUsers", "true");
        expected.put("PrivateMounts", "true");
        expected.put("RemoveIPC", "true");
        expected.put("RestrictNamespaces", "true");
        expected.put("SystemCallArchitectures", "native");
        expected.put("SystemCallErrorNumber", "EPERM");
        expected.put("ProtectClock", "true");
        expected.put("NoNewPrivileges", "true");
        expected.put("CapabilityBoundingSet", "");
        expected.put("RestrictAddressFamilies", "AF_INET AF_INET6 AF_UNIX");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(values(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
        }
        assertThat(values("SystemCallFilter")).containsExactly("@system-service", "~@privileged @resources");
        // the JIT needs writable executable memory; the unit must not forbid it
        assertThat(values("MemoryDenyWriteExecute")).isEmpty();
        assertThat(Files.readString(UNIT)).contains("\n#MemoryMax=512M\n");
    }

    /*
     * systemd's own rating of the unit's sandbox (0 is the most locked down, 10 none), read from
     * the unit file alone (--offline). 1.1 is what the settings above reach; a change that loosens
     * them fails here.
     */
    @Test
    void systemdRatesTheSandboxAtMostTheMeasuredExposure() throws Exception {
        Process p = new ProcessBuilder("systemd-analyze", "security", "--offline=true", "--no-pager", UNIT.toString())
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Matcher m = Pattern.compile("Overall exposure level for jetsink\\.service: (\\d+\\.\\d)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        assertThat(new BigDecimal(m.group(1))).as(out).isLessThanOrEqualTo(new BigDecimal("1.1"));
    }

    /* Every value assigned to {@code key} in the unit, in order (comments skipped). */
    static List<String> values(String key) throws IOException {
        return Files.readAllLines(UNIT).stream()
            .map(String::strip)
            .filter(l -> !l.startsWith("#") && !l.startsWith(";"))
            .filter(l -> l.startsWith(key + "="))
            .map(l -> l.substring(key.length() + 1))
            .toList();
    }
}
