package dev.jetsink.examples;

import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs each example program against a real nats-server, as a newcomer would. */
@SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
class ExamplesTest {

    @TempDir
    Path queue;

    @Test
    void theExamplesRunWithoutMicrometerOrOpenTelemetryOnTheClasspath() {
        // micrometer-core and opentelemetry-api are optional dependencies of jetsink-core: an
        // embedder without a registry or tracing does not get them, and every example here runs without
        assertThat(getClass().getClassLoader().getResource("io/micrometer/core/instrument/MeterRegistry.class")).isNull();
        assertThat(getClass().getClassLoader().getResource("io/opentelemetry/api/OpenTelemetry.class")).isNull();
    }

    @Test
    void notifyWithReceiptsDeliversEveryEventAndSaysSo() throws Exception {
        try (NatsServer server = NatsServer.startDefault(); Connection admin = Nats.connect(server.url())) {
            Streams.create(admin, StreamSpec.of("S3_EVENTS", "s3.events").duplicateWindow(Duration.ofMinutes(5)).build());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = NotifyWithReceipts.run(server.url(), "S3_EVENTS", "s3.events", queue, 25,
                new PrintStream(out, true, StandardCharsets.UTF_8));
            String printed = out.toString(StandardCharsets.UTF_8);
            assertThat(code).as(printed).isZero();
            assertThat(printed.lines().filter(l -> l.startsWith("delivered ") && l.contains(" as S3_EVENTS#"))).hasSize(25);
            assertThat(printed).contains("delivered 25 of 25, queue empty: true");
            assertThat(Streams.state(admin, "S3_EVENTS").getMsgCount()).isEqualTo(25);
        }
    }

    @Test
    void auditFromEnvironmentUsesTheDaemonsKeys() throws Exception {
        try (NatsServer server = NatsServer.startDefault(); Connection admin = Nats.connect(server.url())) {
            Streams.create(admin, StreamSpec.of("AUDIT", "s3.audit").duplicateWindow(Duration.ofMinutes(5)).build());
            Map<String, String> env = Map.of(
                "RUSTFS_AUDIT_NATS_ENABLE", "on",
                "RUSTFS_AUDIT_NATS_ADDRESS", server.url(),
                "RUSTFS_AUDIT_NATS_SUBJECT", "s3.audit",
                "RUSTFS_AUDIT_NATS_JETSTREAM_ENABLE", "on",
                "RUSTFS_AUDIT_NATS_JETSTREAM_STREAM_NAME", "AUDIT",
                "RUSTFS_AUDIT_NATS_QUEUE_DIR", queue.toString(),
                "PATH", "/usr/bin");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = AuditFromEnvironment.run(env, new PrintStream(out, true, StandardCharsets.UTF_8));
            String printed = out.toString(StandardCharsets.UTF_8);
            assertThat(code).as(printed).isZero();
            assertThat(printed).contains("PutObject delivered as AUDIT#1", "GetObject delivered as AUDIT#2",
                "DeleteObject delivered as AUDIT#3", "target audit default:nats: online, ");
            assertThat(Streams.state(admin, "AUDIT").getMsgCount()).isEqualTo(3);
        }
    }

    @Test
    void theReadmesPomSetsTheCompilerReleaseAndBringsAnSlf4jProvider() throws Exception {
        String pom = readmeBlock("xml");
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(pom.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getElementsByTagName("maven.compiler.release").item(0).getTextContent()).isEqualTo("17");
        List<String> artifacts = new ArrayList<>();
        NodeList dependencies = doc.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element d = (Element) dependencies.item(i);
            artifacts.add(d.getElementsByTagName("artifactId").item(0).getTextContent() + ":"
                + d.getElementsByTagName("version").item(0).getTextContent());
        }
        Matcher project = Pattern.compile("<artifactId>jetsink-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(Files.readString(Path.of("..", "pom.xml")));
        assertThat(project.find()).as("the project's version in its pom").isTrue();
        assertThat(artifacts).contains("jetsink-core:" + project.group(1))
            .anyMatch(a -> a.startsWith("slf4j-simple:") || a.startsWith("logback-classic:"));
    }

    @Test
    void theReadmesExampleCompilesAndRunsAsWritten() throws Exception {
        String snippet = readmeBlock("java");
        assertThat(snippet).as("a complete program: imports and the checked exception")
            .startsWith("import ").contains("throws InvalidConfigException");
        try (NatsServer server = NatsServer.startDefault(); Connection admin = Nats.connect(server.url())) {
            // the stream as the README says to make it: a 5 minute duplicate window
            Streams.create(admin, StreamSpec.of("S3_EVENTS", "s3.events").duplicateWindow(Duration.ofMinutes(5)).build());
            String source = snippet.replace("nats://127.0.0.1:4222", server.url())
                .replace("/var/lib/myapp/jetsink", queue.toString());
            Path src = Files.createDirectories(queue.resolveSibling(queue.getFileName() + "-src"));
            Files.writeString(src.resolve("QuickStart.java"), source);
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            int compiled = javac.run(null, diagnostics, diagnostics, "-cp", classpath, "-d", src.toString(),
                src.resolve("QuickStart.java").toString());
            assertThat(compiled).as(diagnostics.toString(StandardCharsets.UTF_8) + "\n" + source).isZero();
            try (URLClassLoader loader = new URLClassLoader(new URL[] {src.toUri().toURL()}, getClass().getClassLoader())) {
                loader.loadClass("QuickStart").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
            }
            assertThat(Streams.state(admin, "S3_EVENTS").getMsgCount()).isEqualTo(1);
        }
    }

    /** The first fenced block of {@code language} in the README, as written there. */
    private static String readmeBlock(String language) throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        String fence = "```" + language + "\n";
        int start = readme.indexOf(fence);
        assertThat(start).as("README has a " + language + " block").isNotNegative();
        return readme.substring(start + fence.length(), readme.indexOf("```", start + fence.length()));
    }
}
