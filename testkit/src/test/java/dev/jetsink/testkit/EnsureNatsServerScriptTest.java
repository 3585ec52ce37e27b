package dev.jetsink.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/lib/ensure-nats-server.sh}, the way {@code bin/test}, {@code bin/chaos} and
 * {@code bin/jetsink demo} get their nats-server, without the network: a mirror nobody answers on
 * stands in for an offline machine.
 */
class EnsureNatsServerScriptTest {

    private static final Path SCRIPT = Path.of("..", "bin", "lib", "ensure-nats-server.sh").toAbsolutePath().normalize();
    /** A mirror with no archive: apt fails at once, as offline, without waiting out retries. */
    private static final String OFFLINE = "file:///nonexistent/jetsink-mirror/debian";

    private record Run(int exit, String out) {
    }

    private static Run ensure(String which, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                ". \"$1\" && ensure_nats_server \"$2\" && echo \"BIN=$NATS_SERVER_BIN VERSION=$NATS_SERVER_VERSION\"",
                "ensure", SCRIPT.toString(), which).redirectErrorStream(true);
        pb.environment().remove("NATS_SERVER_BIN");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out);
    }

    private static Path fakeServer(Path cache, String version) throws IOException {
        Path bin = Files.createDirectories(cache.resolve("jetsink/nats-server").resolve(version)).resolve("nats-server");
        Files.writeString(bin, "#!/bin/sh\necho 'nats-server: v" + version + "'\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    @Test
    void withoutTheNetworkAndNothingFetchedBeforeItIsAClearErrorNotASkip(@TempDir Path cache) throws Exception {
        Run run = ensure("current", Map.of("XDG_CACHE_HOME", cache.toString(), "JETSINK_DEBIAN_MIRROR", OFFLINE));
        assertThat(run.exit()).isNotZero();
        assertThat(run.out())
                .contains("cannot find nats-server in Debian's unstable suite (" + OFFLINE + ")")
                .contains("apt-get update of Debian's unstable suite failed")
                .contains("could not get nats-server (current)")
                .contains("NATS_SERVER_BIN")
                .doesNotContain("BIN=");
    }

    @Test
    void withoutTheNetworkTheServerFetchedBeforeFromTheSuiteIsUsedAndSaidSo(@TempDir Path cache) throws Exception {
        Path bin = fakeServer(cache, "2.15.1");
        Files.writeString(cache.resolve("jetsink/nats-server/suite-unstable"), "2.15.1");
        Run run = ensure("current", Map.of("XDG_CACHE_HOME", cache.toString(), "JETSINK_DEBIAN_MIRROR", OFFLINE));
        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(run.out()).contains("index is unavailable; using nats-server 2.15.1 fetched from it before")
                .contains("BIN=" + bin + " VERSION=2.15.1");
    }

    @Test
    void theOldestSupportedServerIsFetchedFromItsOwnSuite(@TempDir Path cache) throws Exception {
        fakeServer(cache, "2.15.1");
        Files.writeString(cache.resolve("jetsink/nats-server/suite-unstable"), "2.15.1");
        Run run = ensure("bookworm", Map.of("XDG_CACHE_HOME", cache.toString(), "JETSINK_DEBIAN_MIRROR", OFFLINE));
        assertThat(run.exit()).as("another suite's binary is no stand-in").isNotZero();
        assertThat(run.out()).contains("Debian's bookworm suite");
    }

    @Test
    void anExplicitBinaryWinsAndAWrongOneIsAnError(@TempDir Path cache) throws Exception {
        Path bin = fakeServer(cache, "2.12.4");
        Run chosen = ensure("current", Map.of("NATS_SERVER_BIN", bin.toString(), "XDG_CACHE_HOME", cache.toString(),
                "JETSINK_DEBIAN_MIRROR", OFFLINE));
        assertThat(chosen.exit()).as(chosen.out()).isZero();
        assertThat(chosen.out()).contains("BIN=" + bin + " VERSION=2.12.4").doesNotContain("apt-get update");
        Run wrong = ensure("current", Map.of("NATS_SERVER_BIN", "/nonexistent/nats-server"));
        assertThat(wrong.exit()).isNotZero();
        assertThat(wrong.out()).contains("NATS_SERVER_BIN=/nonexistent/nats-server is not an executable file");
    }
}
