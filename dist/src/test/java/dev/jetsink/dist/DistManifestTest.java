package dev.jetsink.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.LoadedConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes manifests in {@code dist/kubernetes/}, read as YAML: well formed, their
 * environment a valid jetsink configuration with every queue on the pod's own volume, the probes on
 * the endpoints meant for them, and the selectors matching the pods. No cluster runs here, so this
 * is what keeps the file honest.
 */
class DistManifestTest {

    private static final Path MANIFEST = Path.of("..").toAbsolutePath().normalize().resolve("dist/kubernetes/jetsink.yaml");
    private static final Path POD_MONITOR = MANIFEST.resolveSibling("jetsink-podmonitor.yaml");
    private static final Map<String, JsonNode> BY_KIND_AND_NAME = new LinkedHashMap<>();

    @BeforeAll
    static void read() throws IOException {
        try (MappingIterator<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).readValues(MANIFEST.toFile())) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc == null || doc.isEmpty()) {
                    continue;
                }
                BY_KIND_AND_NAME.put(doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText(), doc);
            }
        }
    }

    private static JsonNode doc(String kindAndName) {
        assertThat(BY_KIND_AND_NAME).as("documents of " + MANIFEST).containsKey(kindAndName);
        return BY_KIND_AND_NAME.get(kindAndName);
    }

    private static JsonNode container() {
        JsonNode containers = doc("StatefulSet/jetsink").path("spec").path("template").path("spec").path("containers");
        assertThat(containers.size()).isEqualTo(1);
        return containers.get(0);
    }

    /** The container's environment, with a stand-in for each value taken from a Secret. */
    private static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode e : container().path("env")) {
            env.put(e.path("name").asText(), e.has("value") ? e.path("value").asText() : "from-a-secret");
        }
        return env;
    }

    @Test
    void theManifestHoldsTheServicesTheStatefulSetAndTheDisruptionBudget() {
        assertThat(BY_KIND_AND_NAME.keySet()).containsExactlyInAnyOrder(
            "Service/jetsink", "Service/jetsink-pods", "StatefulSet/jetsink", "PodDisruptionBudget/jetsink");
        assertThat(doc("StatefulSet/jetsink").path("spec").path("serviceName").asText()).isEqualTo("jetsink-pods");
        assertThat(doc("Service/jetsink-pods").path("spec").path("clusterIP").asText()).isEqualTo("None");
    }

    @Test
    void theEnvironmentIsAValidConfigurationWithoutMistypedKeys() {
        Map<String, String> env = env();
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());

        assertThat(loaded.errors()).as("errors of the manifest's configuration").isEmpty();
        assertThat(loaded.config().warnings()).as("warnings (a mistyped key is one)").isEmpty();
        assertThat(loaded.config().targets()).hasSize(2);
        assertThat(loaded.config().targets()).allMatch(t -> t.streamName().isPresent());
    }

    @Test
    void everyQueueLiesOnThePodsOwnVolume() {
        String dataDir = env().get("JETSINK_DATA_DIR");
        JsonNode mounts = container().path("volumeMounts");
        String queueMount = StreamSupport.stream(mounts.spliterator(), false)
            .filter(m -> m.path("name").asText().equals("queue")).findFirst().orElseThrow().path("mountPath").asText();
        assertThat(dataDir).as("the package's layout: the daemon's state below the queues").isEqualTo(queueMount + "/data");
        List<String> queueDirs = new ArrayList<>();
        env().forEach((k, v) -> {
            if (k.endsWith("_QUEUE_DIR")) {
                queueDirs.add(v);
            }
        });
        assertThat(queueDirs).as("the package's layout: queues directly in the volume").hasSize(2).allMatch(d -> d.equals(queueMount));
        JsonNode claims = doc("StatefulSet/jetsink").path("spec").path("volumeClaimTemplates");
        assertThat(claims.get(0).path("metadata").path("name").asText()).isEqualTo("queue");
        assertThat(claims.get(0).path("spec").path("accessModes").get(0).asText()).isEqualTo("ReadWriteOnce");
        assertThat(doc("StatefulSet/jetsink").path("spec").path("persistentVolumeClaimRetentionPolicy").path("whenScaled")
            .asText()).as("a scaled-down pod's queue may hold undelivered events").isEqualTo("Retain");
        assertThat(container().path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(StreamSupport.stream(mounts.spliterator(), false).map(m -> m.path("mountPath").asText()))
            .as("the JVM's temporary files need a writable /tmp").contains("/tmp");
    }

    @Test
    void theProbesUseReadyAndLiveOnTheServingPort() {
        JsonNode c = container();
        assertThat(c.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/ready");
        assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/live");
        assertThat(c.path("startupProbe").path("httpGet").path("path").asText()).isEqualTo("/live");
        String address = env().get("JETSINK_HTTP_ADDRESS");
        int port = c.path("ports").get(0).path("containerPort").asInt();
        assertThat(address).isEqualTo("0.0.0.0:" + port);
        assertThat(c.path("readinessProbe").path("httpGet").path("port").asText()).isEqualTo(c.path("ports").get(0).path("name").asText());
    }

    @Test
    void shutdownHasTimeForThePreStopAndTheDaemonsOwnDrain() {
        JsonNode pod = doc("StatefulSet/jetsink").path("spec").path("template").path("spec");
        JsonNode preStop = container().path("lifecycle").path("preStop").path("exec").path("command");
        assertThat(preStop.get(0).asText()).isEqualTo("sleep");
        int sleep = preStop.get(1).asInt();
        // after SIGTERM the daemon gives requests up to 5 s and its targets up to 5 s
        assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isGreaterThanOrEqualTo(sleep + 10 + 5);
        assertThat(pod.path("securityContext").path("runAsUser").asInt())
            .as("the numeric user of dist/container/Dockerfile").isEqualTo(10001);
    }

    @Test
    void thePodMonitorScrapesEveryPodsMetricsUnderTheAlertRulesJob() throws IOException {
        JsonNode monitor;
        try (MappingIterator<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).readValues(POD_MONITOR.toFile())) {
            monitor = docs.readAll().stream().filter(d -> d != null && !d.isEmpty()).findFirst().orElseThrow();
        }
        assertThat(monitor.path("kind").asText()).isEqualTo("PodMonitor");
        JsonNode labels = doc("StatefulSet/jetsink").path("spec").path("template").path("metadata").path("labels");
        assertThat(monitor.path("spec").path("selector").path("matchLabels").size()).isPositive();
        monitor.path("spec").path("selector").path("matchLabels").properties()
            .forEach(e -> assertThat(labels.path(e.getKey()).asText()).as("PodMonitor selector").isEqualTo(e.getValue().asText()));
        JsonNode endpoint = monitor.path("spec").path("podMetricsEndpoints").get(0);
        assertThat(endpoint.path("port").asText()).isEqualTo(container().path("ports").get(0).path("name").asText());
        assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
        assertThat(labels.path(monitor.path("spec").path("jobLabel").asText()).asText())
            .as("the job docs/prometheus-alerts.yml selects by default").isEqualTo("jetsink");
    }

    @Test
    void theServicesAndTheBudgetSelectThePods() {
        JsonNode labels = doc("StatefulSet/jetsink").path("spec").path("template").path("metadata").path("labels");
        for (String selecting : List.of("Service/jetsink", "Service/jetsink-pods")) {
            doc(selecting).path("spec").path("selector").properties()
                .forEach(e -> assertThat(labels.path(e.getKey()).asText()).as(selecting).isEqualTo(e.getValue().asText()));
        }
        doc("PodDisruptionBudget/jetsink").path("spec").path("selector").path("matchLabels").properties()
            .forEach(e -> assertThat(labels.path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
        assertThat(doc("PodDisruptionBudget/jetsink").path("spec").path("maxUnavailable").asInt()).isEqualTo(1);
    }
}
