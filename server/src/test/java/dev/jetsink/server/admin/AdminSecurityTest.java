package dev.jetsink.server.admin;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.SecurityFixtures;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admin API security (DESIGN.md "Admin API"): disabled without a token (403), bearer token checked
 * (401), and no password or token value in any admin response or log line.
 */
class AdminSecurityTest {

    private static final String PASSWORD = "pw-Zq81-never-shown";
    private static final String WRONG_PASSWORD = "pw-Wr0ng-never-shown";
    private static final String TOKEN_VALUE = "tok-Xy55-never-shown";

    @Test
    void adminApiAnswers403WhenNoAdminTokenIsConfigured() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.NOTIFY).withoutTargets(TargetKind.AUDIT).start()) {
            AdminCalls admin = new AdminCalls(h).withToken("anything");
            List<HttpResponse<String>> answers = List.of(
                admin.list(TargetKind.NOTIFY),
                admin.list(TargetKind.AUDIT),
                admin.put(TargetKind.NOTIFY, "primary", admin.jetStream("S", "s")),
                admin.reset(TargetKind.AUDIT, "primary"));
            for (HttpResponse<String> r : answers) {
                assertThat(r.statusCode()).isEqualTo(403);
                assertThat(AdminCalls.json(r).get("error").asText()).isEqualTo("admin API disabled");
            }
        }
    }

    @Test
    void wrongOrMissingBearerTokenAnswers401AndAppliesNothing() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.NOTIFY).withoutTargets(TargetKind.AUDIT)) {
            AdminCalls.configure(h);
            h.start();
            Map<String, String> kv = Map.of("address", h.nats.url(), "subject", "events");
            for (String token : List.of("wrong-token", AdminCalls.TOKEN + "x", "")) {
                AdminCalls caller = new AdminCalls(h).withToken(token);
                HttpResponse<String> put = caller.put(TargetKind.NOTIFY, "primary", kv);
                assertThat(put.statusCode()).as("token '%s'", token).isEqualTo(401);
                assertThat(put.headers().firstValue("WWW-Authenticate")).contains("Bearer");
                assertThat(caller.list(TargetKind.NOTIFY).statusCode()).isEqualTo(401);
            }
            HttpResponse<String> basic = h.send(HttpRequest.newBuilder(h.uri(AdminCalls.base(TargetKind.NOTIFY) + "/list"))
                .header("Authorization", "Basic " + AdminCalls.TOKEN).GET().build());
            assertThat(basic.statusCode()).isEqualTo(401);
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(404);
            assertThat(AdminCalls.json(new AdminCalls(h).list(TargetKind.NOTIFY)).get("targets")).isEmpty();
        }
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void noSecretAppearsInAnyAdminResponseOrLogLine() throws Exception {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger("dev.jetsink");
        logged.setContext(root.getLoggerContext());
        logged.start();
        root.addAppender(logged);
        try (NatsServer secured = NatsServer.builder().config(SecurityFixtures.userPassword("jet", PASSWORD)).build().start();
             DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.NOTIFY).withoutTargets(TargetKind.AUDIT)) {
            Path data = AdminCalls.configure(h);
            h.start();
            try (Connection c = Nats.connect(new Options.Builder().server(secured.url())
                    .userInfo("jet".toCharArray(), PASSWORD.toCharArray()).build())) {
                Streams.create(c, StreamSpec.of("SECURED", "secured.events").duplicateWindow(Duration.ofSeconds(274)).build());
            }
            AdminCalls admin = new AdminCalls(h);
            var kv = admin.jetStream("SECURED", "secured.events");
            kv.put("address", secured.url());
            kv.put("username", "jet");
            kv.put("password", PASSWORD);

            List<HttpResponse<String>> answers = new ArrayList<>();
            answers.add(admin.put(TargetKind.NOTIFY, "primary", kv, "?dry_run=true"));
            answers.add(admin.put(TargetKind.NOTIFY, "primary", kv));
            answers.add(admin.list(TargetKind.NOTIFY));
            var wrong = new java.util.LinkedHashMap<>(kv);
            wrong.put("password", WRONG_PASSWORD);
            HttpResponse<String> refused = admin.put(TargetKind.AUDIT, "archive", wrong);
            answers.add(refused);
            var twoMethods = new java.util.LinkedHashMap<>(kv);
            twoMethods.put("token", TOKEN_VALUE);
            HttpResponse<String> invalid = admin.put(TargetKind.AUDIT, "archive", twoMethods);
            answers.add(invalid);

            assertThat(answers.get(0).statusCode()).as(answers.get(0).body()).isEqualTo(200);
            assertThat(answers.get(1).statusCode()).as(answers.get(1).body()).isEqualTo(200);
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body()).contains("nats connectivity check failed: ");
            assertThat(invalid.statusCode()).isEqualTo(400);
            assertThat(invalid.body()).contains("only one auth method may be set");
            assertThat(answers.get(2).body()).contains("\"key\":\"password\",\"value\":\"***\"");
            for (HttpResponse<String> r : answers) {
                assertThat(r.body()).doesNotContain(PASSWORD, WRONG_PASSWORD, TOKEN_VALUE);
            }
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            synchronized (logged) {
                assertThat(logged.list).isNotEmpty();
                assertThat(logged.list).map(ILoggingEvent::getFormattedMessage)
                    .allSatisfy(m -> assertThat(m).doesNotContain(PASSWORD, WRONG_PASSWORD, TOKEN_VALUE));
            }
            Path file = data.resolve(AppliedTargetStore.DIRECTORY).resolve("notify-primary.json");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .as("the persisted record holds the password").isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
        } finally {
            root.detachAppender(logged);
        }
    }
}
