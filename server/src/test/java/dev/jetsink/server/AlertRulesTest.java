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
 * say, checked by Prometheus's own {@code promtool}. {@code bin/test} installs it
 * (Debian package {@code prometheus}); without it the test fails rather than skipping, so a
 * rule cannot silently go unchecked.
 */
class AlertRulesTest {
    private static final Path DOCS = Path.of("..", "docs").toAbsolutePath().normalize();
    private static final int RULES = 16;
    /** The placeholders the shipped rules carry, and the substitution their header documents. */
    private static final String JOB = "job=\"jetsink\"";
    private static final String RUNBOOK_BASE = "https://jetsink.example.com/docs/OPERATIONS.md";
    private static final String SED_JOB = "s|" + JOB + "|job=\"<your job>\"|g";
    private static final String SED_BASE = "s|" + RUNBOOK_BASE + "|<your docs URL>|g";

    private static Path promtool() {
        Optional<Path> found = Stream.concat(
                Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).map(Path::of),
                Stream.of(Path.of("/usr/bin"), Path.of("/usr/sbin")))
            .map(dir -> dir.resolve("promtool")).filter(Files::isExecutable).findFirst();
        assertThat(found).as("promtool is needed (bin/test installs Debian's prometheus package)").isPresent();
        return found.get();
    }

    private static String run(String... args) throws IOException, InterruptedException {
        return runIn(DOCS, args);
    }

    private static String runIn(Path dir, String... args) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(args).directory(dir.toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(String.join(" ", args) + "\n" + out).isZero();
        return out;
    }

    @Test
    void theRulesAreValidAndPassTheirUnitTests() throws Exception {
        String tool = promtool().toString();
        assertThat(run(tool, "check", "rules", "prometheus-alerts.yml")).contains("SUCCESS: " + RULES + " rules found");
        assertThat(run(tool, "test", "rules", "prometheus-alerts.test.yml")).contains("SUCCESS");
    }

    @Test
    void everyAlertHasAUnitTest() throws Exception {
        List<String> alerts = Files.readAllLines(DOCS.resolve("prometheus-alerts.yml")).stream()
            .map(String::strip).filter(l -> l.startsWith("- alert: ")).map(l -> l.substring("- alert: ".length())).toList();
        String tests = Files.readString(DOCS.resolve("prometheus-alerts.test.yml"));
        assertThat(alerts).hasSize(RULES);
        assertThat(alerts).allSatisfy(a -> assertThat(tests).contains("alertname: " + a));
    }

    @Test
    void everyAlertHasAFiringAndAQuietCase() throws Exception {
        Map<String, Set<String>> cases = cases(Files.readAllLines(DOCS.resolve("prometheus-alerts.test.yml")));
        for (String alert : alertBlocks().keySet()) {
            assertThat(cases.getOrDefault(alert, Set.of())).as(alert + " cases").contains("firing", "quiet");
        }
    }

    @Test
    void theCaseCheckerSeesAnAlertWithoutAQuietCase() {
        Map<String, Set<String>> cases = cases(List.of("      - eval_time: 5m", "        alertname: JetsinkX",
            "        exp_alerts:", "          - exp_labels: {severity: warning}"));
        assertThat(cases.get("JetsinkX")).containsExactly("firing");
    }

    @Test
    void everyRuleCarriesASeverity() throws Exception {
        assertThat(alertBlocks()).hasSize(RULES).allSatisfy((alert, block) -> assertThat(block)
            .as(alert).containsAnyOf("severity: critical", "severity: warning"));
    }

    @Test
    void theDocumentedSubstitutionReplacesEveryJobSelectorAndRunbookBase(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        String shipped = Files.readString(DOCS.resolve("prometheus-alerts.yml"));
        assertThat(shipped).as("the header documents the substitution").contains(SED_JOB).contains(SED_BASE);
        String jobLine = "sed -e 's|" + JOB + "|job=\"jetsink-eu\"|g'";
        Path out = dir.resolve("jetsink-alerts.yml");
        String sed = jobLine + " -e 's|" + RUNBOOK_BASE + "|https://wiki.example.org/ops/jetsink|g' "
            + DOCS.resolve("prometheus-alerts.yml") + " > " + out;
        runIn(dir, "sh", "-c", sed);
        String site = Files.readString(out);
        String rules = site.substring(site.indexOf("groups:"));
        assertThat(rules).doesNotContain(JOB).doesNotContain(RUNBOOK_BASE).contains("up{job=\"jetsink-eu\"}")
            .contains("runbook_url: \"https://wiki.example.org/ops/jetsink#jetsinkdown\"");
        assertThat(runIn(dir, promtool().toString(), "check", "rules", out.toString()))
            .contains("SUCCESS: " + RULES + " rules found");
    }

    /** Each alert of the rules file with the lines of its rule. */
    private static Map<String, String> alertBlocks() throws IOException {
        Map<String, String> blocks = new LinkedHashMap<>();
        String alert = null;
        StringBuilder block = new StringBuilder();
        for (String line : Files.readAllLines(DOCS.resolve("prometheus-alerts.yml"))) {
            String l = line.strip();
            if (l.startsWith("- alert: ")) {
                if (alert != null) {
                    blocks.put(alert, block.toString());
                }
                alert = l.substring("- alert: ".length());
                block.setLength(0);
            }
            block.append(l).append('\n');
        }
        if (alert != null) {
            blocks.put(alert, block.toString());
        }
        return blocks;
    }

    /** For each alert name in a promtool test file: "quiet" when a case expects nothing, "firing" when one expects alerts. */
    private static Map<String, Set<String>> cases(List<String> lines) {
        Map<String, Set<String>> cases = new LinkedHashMap<>();
        for (int i = 0; i < lines.size() - 1; i++) {
            String l = lines.get(i).strip();
            if (l.startsWith("alertname: ")) {
                String expected = lines.get(i + 1).strip();
                String kind = expected.equals("exp_alerts: []") ? "quiet" : expected.equals("exp_alerts:") ? "firing" : "?";
                cases.computeIfAbsent(l.substring("alertname: ".length()), k -> new HashSet<>()).add(kind);
            }
        }
        return cases;
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
        assertThat(runbooks.keySet()).as("alerts with a runbook_url").hasSize(RULES);
        assertThat(runbooks).allSatisfy((name, url) -> {
            assertThat(url).startsWith(RUNBOOK_BASE + "#");
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
