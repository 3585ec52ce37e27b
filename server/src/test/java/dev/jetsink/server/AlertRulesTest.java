package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shipped alert rules (docs/prometheus-alerts.yml) are valid and behave as their unit tests
 * say, checked by Prometheus's own {@code promtool} (issue #13). {@code bin/test} installs it
 * (Debian package {@code prometheus}); without it the test fails rather than skipping, so a
 * rule cannot silently go unchecked.
 */
class AlertRulesTest {
    private static final Path DOCS = Path.of("..", "docs").toAbsolutePath().normalize();

    private static Path promtool() {
        Optional<Path> found = Stream.concat(
                Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).map(Path::of),
                Stream.of(Path.of("/usr/bin"), Path.of("/usr/sbin")))
            .map(dir -> dir.resolve("promtool")).filter(Files::isExecutable).findFirst();
        assertThat(found).as("promtool is needed (bin/test installs Debian's prometheus package)").isPresent();
        return found.get();
    }

    private static String run(String... args) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(args).directory(DOCS.toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(String.join(" ", args) + "\n" + out).isZero();
        return out;
    }

    @Test
    void theRulesAreValidAndPassTheirUnitTests() throws Exception {
        String tool = promtool().toString();
        assertThat(run(tool, "check", "rules", "prometheus-alerts.yml")).contains("SUCCESS: 13 rules found");
        assertThat(run(tool, "test", "rules", "prometheus-alerts.test.yml")).contains("SUCCESS");
    }

    @Test
    void everyAlertHasAUnitTest() throws Exception {
        List<String> alerts = Files.readAllLines(DOCS.resolve("prometheus-alerts.yml")).stream()
            .map(String::strip).filter(l -> l.startsWith("- alert: ")).map(l -> l.substring("- alert: ".length())).toList();
        String tests = Files.readString(DOCS.resolve("prometheus-alerts.test.yml"));
        assertThat(alerts).hasSize(13);
        assertThat(alerts).allSatisfy(a -> assertThat(tests).contains("alertname: " + a));
    }

    @Test
    void everyAlertLinksARunbookSectionOfTheOperationsGuideThatExists() throws Exception {
        List<String> lines = Files.readAllLines(DOCS.resolve("prometheus-alerts.yml")).stream().map(String::strip).toList();
        Set<String> anchors = headingAnchors(Files.readAllLines(DOCS.resolve("OPERATIONS.md")));
        String alert = null;
        Map<String, String> runbooks = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("- alert: ")) {
                alert = line.substring("- alert: ".length());
            } else if (line.startsWith("runbook_url: ")) {
                runbooks.put(alert, line.substring("runbook_url: ".length()).replace("\"", ""));
            }
        }
        assertThat(runbooks.keySet()).as("alerts with a runbook_url").hasSize(13);
        assertThat(runbooks).allSatisfy((name, url) -> {
            assertThat(url).startsWith("docs/OPERATIONS.md#");
            assertThat(anchors).as("OPERATIONS.md has the section " + url).contains(url.substring(url.indexOf('#') + 1));
        });
    }

    private static Set<String> headingAnchors(List<String> markdown) {
        Set<String> anchors = new HashSet<>();
        boolean inCode = false;
        for (String line : markdown) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            } else if (!inCode && line.startsWith("#")) {
                anchors.add(anchor(line));
            }
        }
        return anchors;
    }

    /** The anchor GitHub and most Markdown renderers give a heading: lower case, punctuation dropped, spaces as dashes. */
    private static String anchor(String heading) {
        return heading.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
    }
}
