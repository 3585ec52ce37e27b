package dev.jetsink.server.cli;

import dev.jetsink.server.ExitCode;
import io.nats.client.NKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import static org.assertj.core.api.Assertions.assertThat;

class CheckConfigCommandTest {

    @TempDir
    Path dir;

    private final StringWriter output = new StringWriter();

    private int run(Map<String, String> env, String... args) {
        CommandLine cli = new CommandLine(new CheckConfigCommand(env));
        cli.setOut(new PrintWriter(output, true));
        cli.setErr(new PrintWriter(output, true));
        return cli.execute(args);
    }

    private static Map<String, String> validTarget() {
        Map<String, String> env = new HashMap<>();
        env.put("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS_PRIMARY", "127.0.0.1:4222");
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "rustfs.events");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_PRIMARY", "RUSTFS_EVENTS");
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", "/var/lib/jetsink");
        return env;
    }

    @Test
    void validConfigurationPrintsEachTargetAndExitsZero() {
        assertThat(run(validTarget())).isEqualTo(ExitCode.OK);
        assertThat(output.toString())
            .contains("notify primary:nats")
            .contains("path:           jetstream")
            .contains("address:        nats://127.0.0.1:4222")
            .contains("subject:        rustfs.events")
            .contains("stream:         RUSTFS_EVENTS")
            .contains("ack timeout:    30s")
            .contains("queue dir:      /var/lib/jetsink/notify-nats-primary")
            .contains("queue limit:    100000")
            .contains("publish window: 1024")
            .contains("configuration is valid");
    }

    @Test
    void secretsReadFromFilesShowTheirFileSettingAndNeverTheSecret() throws IOException {
        Path token = Files.writeString(dir.resolve("notify-token"), "token-in-a-file\n");
        Path admin = Files.writeString(dir.resolve("admin-token"), "admin-in-a-file\n");
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_TOKEN_PRIMARY_FILE", token.toString());
        env.put("JETSINK_ADMIN_TOKEN_FILE", admin.toString());
        assertThat(run(env)).as(output.toString()).isEqualTo(ExitCode.OK);
        assertThat(output.toString())
            .contains("auth:           token *** (RUSTFS_NOTIFY_NATS_TOKEN_PRIMARY_FILE=" + token + ")")
            .contains("admin token:   *** (JETSINK_ADMIN_TOKEN_FILE=" + admin + ")")
            .doesNotContain("token-in-a-file").doesNotContain("admin-in-a-file");
    }

    @Test
    void aSubjectTemplateIsShownWithItsSpaceAndABadOneIsAnErrorNamingThePlaceholder() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "rustfs.events.{bucket}.{event}");
        assertThat(run(env)).isEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("subject:        rustfs.events.{bucket}.{event}"
            + "  (template: the stream must capture rustfs.events.*.*.*)");

        env.put("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "rustfs.events.{bukcet}");
        output.getBuffer().setLength(0);
        assertThat(run(env)).isNotEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY")
            .contains("unknown placeholder {bukcet}");
    }

    @Test
    void mistypedJetStreamKeyExitsTwoAndSuggestsTheRightName() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE", "on");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString())
            .contains("unknown configuration key RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE"
                + " (did you mean RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE?)")
            .contains("configuration is invalid: 1 error(s)");
    }

    @Test
    void everyErrorIsPrintedWithItsTargetAndVariable() {
        Map<String, String> env = validTarget();
        env.remove("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_PRIMARY");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS_PRIMARY", "200");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString())
            .contains("notify primary:nats: RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_PRIMARY:"
                + " jetstream_stream_name is required when jetstream_enable is on")
            .contains("notify primary:nats: RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS_PRIMARY:"
                + " jetstream_ack_timeout_secs must be between 10 and 120 seconds");
    }

    @Test
    void secretsPrintAsStars() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_USERNAME_PRIMARY", "alice");
        env.put("RUSTFS_NOTIFY_NATS_PASSWORD_PRIMARY", "pw-SECRET");
        env.put("JETSINK_ADMIN_TOKEN", "admin-SECRET");
        env.put("JETSINK_INGEST_TOKEN", "ingest-SECRET");
        assertThat(run(env)).isEqualTo(ExitCode.OK);
        assertThat(output.toString()).doesNotContain("SECRET")
            .contains("auth:           user alice, password ***")
            .contains("admin token:   ***");
    }

    @Test
    void secretsStayHiddenWhenTheConfigurationIsInvalid() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_TOKEN_PRIMARY", "tok-SECRET");
        env.put("RUSTFS_NOTIFY_NATS_CREDENTIALS_FILE_PRIMARY", "/etc/x.creds");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS_PRIMARY", "nats://u:pw-SECRET@h:4222");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).doesNotContain("SECRET").contains("only one auth method");
    }

    @Test
    void missingCredentialsAndCaFilesAreErrorsNamingTheVariable() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_CREDENTIALS_FILE_PRIMARY", dir.resolve("missing.creds").toString());
        env.put("RUSTFS_NOTIFY_NATS_TLS_CA_PRIMARY", dir.resolve("missing-ca.pem").toString());
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("errors:")
            .contains("RUSTFS_NOTIFY_NATS_CREDENTIALS_FILE_PRIMARY: credentials_file file does not exist: "
                + dir.resolve("missing.creds"))
            .contains("RUSTFS_NOTIFY_NATS_TLS_CA_PRIMARY: tls_ca file does not exist: " + dir.resolve("missing-ca.pem"))
            .contains("configuration is invalid: 2 error(s)");
    }

    @Test
    void aMalformedQueueLimitIsAnErrorNotTheDefault() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT_PRIMARY", "225_000");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT_PRIMARY: queue_limit must be a whole number")
            .doesNotContain("queue limit:    100000");
    }

    @Test
    void aMistypedPrefixIsAnErrorWithItsSuggestionWithoutStrict() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_AUIDT_NATS_ENABLE", "on");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).doesNotContain("warnings:").contains("errors:")
            .contains("RUSTFS_AUIDT_NATS_ENABLE is not a variable jetsink reads, so it has no effect"
                + " (did you mean RUSTFS_AUDIT_NATS_ENABLE?)");
    }

    @Test
    void aPrefixMissingALetterIsAnErrorWithItsSuggestionWithoutStrict() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NAT_QUEUE_LIMIT", "5000");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("errors:")
            .contains("RUSTFS_NOTIFY_NAT_QUEUE_LIMIT is not a variable jetsink reads, so it has no effect (did you mean RUSTFS_NOTIFY_NATS_QUEUE_LIMIT?)")
            .contains("configuration is invalid: 1 error(s)");
    }

    @Test
    void aTargetThatFailedValidationIsListedWithItsErrors() {
        Map<String, String> env = new HashMap<>();
        env.put("RUSTFS_AUDIT_NATS_ENABLE_LOG", "on");
        env.put("RUSTFS_AUDIT_NATS_ADDRESS_LOG", "127.0.0.1:4222");
        env.put("RUSTFS_AUDIT_NATS_SUBJECT_LOG", "rustfs.audit");
        env.put("RUSTFS_AUDIT_NATS_PUBLISH_WINDOW_LOG", "0");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).doesNotContain("no NATS target is enabled")
            .contains("audit log:nats (invalid: the daemon would refuse to start)\n"
                + "  error: RUSTFS_AUDIT_NATS_PUBLISH_WINDOW_LOG: publish_window must be between 1 and 4096\n");
    }

    @Test
    void twoTargetsOnOneStreamAndSubjectAreAnErrorWithoutStrict() {
        Map<String, String> env = validTarget();
        validTarget().forEach((k, v) -> env.put(k.replace("_PRIMARY", "_SECOND"), v));
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).doesNotContain("warnings:").contains("errors:")
            .contains("notify second:nats: RUSTFS_NOTIFY_NATS_ENABLE_SECOND: publishes to stream RUSTFS_EVENTS subject rustfs.events"
                + " like notify primary:nats: every event is stored twice");
    }

    @Test
    void aQueueDirectoryBelowAFileCannotBeCreated() throws IOException {
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", file.resolve("queues").toString());
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY: " + file
            + " (the nearest existing parent of " + file.resolve("queues/notify-nats-primary") + ") is not a directory");
    }

    @Test
    void asAnotherUserAQueueDirectoryItCannotWriteIsAnError() throws IOException {
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path root = Files.createDirectory(dir.resolve("queues"));
        Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", root.toString());
        assertThat(run(env)).as("the current user owns it").isEqualTo(ExitCode.OK);

        output.getBuffer().setLength(0);
        assertThat(run(env, "--as-user", "nobody")).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains(root + " (the nearest existing parent of "
            + root.resolve("notify-nats-primary") + ") is not writable by user nobody");

        Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        output.getBuffer().setLength(0);
        assertThat(run(env, "--as-user", "nobody")).as(output.toString()).isEqualTo(ExitCode.OK);
    }

    @Test
    void runAsRootItChecksAsTheUnitsUserWhenThatAccountExists() throws IOException {
        Path queues = searchableQueueRoot("rwxr-xr-x");
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", queues.toString());
        assertThat(runAs(env, true, "jetsink")).as(output.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString())
            .contains("files and queue directories checked as user jetsink (the packaged unit's user; --as-user NAME")
            .contains(queues + " (the nearest existing parent of " + queues.resolve("notify-nats-primary")
                + ") is not writable by user jetsink (owner root:root, mode 0755)")
            .contains(queues.resolve("notify-nats-primary") + " is outside /var/lib/jetsink")
            .contains("ReadWritePaths=" + queues);

        output.getBuffer().setLength(0);
        assertThat(runAs(env, true, "jetsink", "--as-user", "root")).as("--as-user overrides").isEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("files and queue directories checked as user root\n");

        output.getBuffer().setLength(0);
        assertThat(runAs(env, true, "someone-else")).as("no jetsink account").isEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("files and queue directories checked as the current user");

        output.getBuffer().setLength(0);
        assertThat(runAs(env, false, "jetsink")).as("not root").isEqualTo(ExitCode.OK);
    }

    @Test
    void aRootOwnedKeyOfMode0600FailsWhenCheckedAsTheDaemonsUserAndItsContentsAreNeverPrinted() throws IOException {
        Path queues = searchableQueueRoot("rwxrwxrwx");
        Path cert = Files.writeString(dir.resolve("client.pem"), "-----BEGIN CERTIFICATE-----\ncert-body\n");
        Path key = Files.writeString(dir.resolve("client.key"), "-----BEGIN PRIVATE KEY-----\nkey-body-SECRET\n");
        Path token = Files.writeString(dir.resolve("token"), "token-SECRET\n");
        Files.setPosixFilePermissions(cert, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", queues.toString());
        env.put("RUSTFS_NOTIFY_NATS_TLS_CLIENT_CERT_PRIMARY", cert.toString());
        env.put("RUSTFS_NOTIFY_NATS_TLS_CLIENT_KEY_PRIMARY", key.toString());
        env.put("RUSTFS_NOTIFY_NATS_TOKEN_PRIMARY_FILE", token.toString());

        assertThat(runAs(env, true, "svc", "--as-user", "svc")).as(output.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString())
            .contains("RUSTFS_NOTIFY_NATS_TLS_CLIENT_KEY_PRIMARY: tls_client_key file " + key
                + " is not readable by user svc (owner root:root, mode 0600)")
            .contains("RUSTFS_NOTIFY_NATS_TOKEN_PRIMARY_FILE: secret file " + token
                + " is not readable by user svc (owner root:root, mode 0600)")
            .doesNotContain("tls_client_cert file").contains("configuration is invalid: 2 error(s)")
            .doesNotContain("SECRET").doesNotContain("key-body");

        // svc's supplementary group (from the group file) may read both once they are 0640 in that group
        for (Path p : new Path[] {key, token}) {
            Files.setAttribute(p, "unix:gid", 64_201);
            Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        }
        output.getBuffer().setLength(0);
        assertThat(runAs(env, true, "svc", "--as-user", "svc")).as(output.toString()).isEqualTo(ExitCode.OK);
    }

    @Test
    void aConfigFileTheDaemonsUserCannotReadIsAnError() throws IOException {
        Path queues = searchableQueueRoot("rwxrwxrwx");
        Map<String, String> target = validTarget();
        target.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", queues.toString());
        Path file = Files.writeString(dir.resolve("jetsink.env"), target.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue() + "\n").collect(java.util.stream.Collectors.joining()));
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));

        assertThat(runAs(Map.of(), true, "svc", "--as-user", "svc", "--config", file.toString()))
            .as(output.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("config file: --config: config file " + file
            + " is not readable by user svc (owner root:root, mode 0600)");

        Files.setAttribute(file, "unix:gid", 64_201);
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        output.getBuffer().setLength(0);
        assertThat(runAs(Map.of(), true, "svc", "--as-user", "svc", "--config", file.toString()))
            .as("mode 0640 in a group of the user, as the package installs it").isEqualTo(ExitCode.OK);
    }

    /** A queue root of {@code mode} below a temporary directory anyone may enter (JUnit's is 0700). */
    private Path searchableQueueRoot(String mode) throws IOException {
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path queues = Files.createDirectory(dir.resolve("queues"));
        Files.setPosixFilePermissions(queues, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
        return queues;
    }

    /** Runs with accounts from a passwd and group file holding root and {@code user} (uid 64123, in group 64201). */
    private int runAs(Map<String, String> env, boolean asRoot, String user, String... args) throws IOException {
        Path accounts = Files.createDirectories(dir.resolve("accounts"));
        Path passwd = Files.writeString(accounts.resolve("passwd"),
            "root:x:0:0::/root:/bin/sh\n" + user + ":x:64123:64123::/var/lib/" + user + ":/usr/sbin/nologin\n");
        Path group = Files.writeString(accounts.resolve("group"), "root:x:0:\n" + user + ":x:64123:\ncerts:x:64201:" + user + "\n");
        CommandLine cli = new CommandLine(new CheckConfigCommand(env, passwd, group, asRoot));
        cli.setOut(new PrintWriter(output, true));
        cli.setErr(new PrintWriter(output, true));
        return cli.execute(args);
    }

    @Test
    void anUnknownAsUserIsAUsageError() {
        assertThat(run(validTarget(), "--as-user", "no-such-user-here")).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("--as-user: no local user no-such-user-here in /etc/passwd");
    }

    @Test
    void aGoodSeedFileIsShownByPathAndItsSeedNeverPrinted() throws Exception {
        String seed = new String(NKey.createUser(new SecureRandom()).getSeed());
        Path file = Files.writeString(dir.resolve("user.nk"), seed + "\n");
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_NKEY_SEED_FILE_PRIMARY", file.toString());

        assertThat(run(env)).as(output.toString()).isEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("auth:           nkey seed file " + file).doesNotContain(seed)
            .doesNotContain(seed.substring(2, 12));
    }

    @Test
    void aMissingSeedFileIsAnErrorNamingTheVariableAndTheFile() {
        Path missing = dir.resolve("missing.nk");
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_NKEY_SEED_FILE_PRIMARY", missing.toString());

        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("errors:").contains("RUSTFS_NOTIFY_NATS_NKEY_SEED_FILE_PRIMARY")
            .contains("nkey_seed_file file does not exist: " + missing)
            .contains("configuration is invalid: 1 error(s)");
    }

    @Test
    void anUnreadableSeedFileIsAnError() throws IOException {
        // /proc/self/mem refuses a plain read even to root, who reads a file of any mode
        Path unreadable = Files.createSymbolicLink(dir.resolve("unreadable.nk"), Path.of("/proc/self/mem"));
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_NKEY_SEED_FILE_PRIMARY", unreadable.toString());

        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("nkey_seed_file file is not readable: " + unreadable);
    }

    @Test
    void aMalformedSeedIsAnErrorAndItsTextIsNeverPrinted() throws Exception {
        String seed = new String(NKey.createUser(new SecureRandom()).getSeed());
        String broken = seed.substring(0, seed.length() - 4) + "ZZZZ";
        Path file = Files.writeString(dir.resolve("broken.nk"), broken);
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_NKEY_SEED_FILE_PRIMARY", file.toString());

        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("nkey_seed_file file does not hold an NKey seed")
            .doesNotContain(broken).doesNotContain(broken.substring(2, 12));
    }

    @Test
    void aSeedFileWithAnotherAuthMethodIsAnError() throws Exception {
        Path file = Files.writeString(dir.resolve("user.nk"), new String(NKey.createUser(new SecureRandom()).getSeed()));
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_NKEY_SEED_FILE_PRIMARY", file.toString());
        env.put("RUSTFS_NOTIFY_NATS_TOKEN_PRIMARY", "tok-SECRET");

        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("only one auth method").doesNotContain("SECRET");
    }

    @Test
    void jetStreamDomainIsShownAndABadOneIsAnError() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_DOMAIN_PRIMARY", "hub");
        assertThat(run(env)).isEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("js domain:      hub");

        output.getBuffer().setLength(0);
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_DOMAIN_PRIMARY", "hub.east");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("RUSTFS_NOTIFY_NATS_JETSTREAM_DOMAIN_PRIMARY")
            .contains("jetstream_domain must be one token");
    }

    @Test
    void jetStreamApiPrefixIsShownAndExcludesADomain() {
        Map<String, String> env = validTarget();
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_API_PREFIX_PRIMARY", "$JS.hub.API");
        assertThat(run(env)).isEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("js api prefix:  $JS.hub.API");

        output.getBuffer().setLength(0);
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_DOMAIN_PRIMARY", "hub");
        assertThat(run(env)).isEqualTo(ExitCode.USAGE);
        assertThat(output.toString()).contains("exclude each other");
    }

    @Test
    void configFileIsReadAndTheEnvironmentOverridesIt() throws IOException {
        Path file = Files.writeString(dir.resolve("jetsink.env"), "RUSTFS_AUDIT_NATS_ENABLE=on\n"
            + "RUSTFS_AUDIT_NATS_ADDRESS=10.0.0.9:4222\nRUSTFS_AUDIT_NATS_SUBJECT=from.file\n");
        assertThat(run(Map.of("RUSTFS_AUDIT_NATS_SUBJECT", "from.env"), "--config", file.toString()))
            .isEqualTo(ExitCode.OK);
        assertThat(output.toString()).contains("audit _:nats").contains("subject:        from.env")
            .contains("address:        nats://10.0.0.9:4222");
    }

    @Test
    void checkConfigIsReachableFromTheMainCommand() {
        assertThat(Main.run("check-config", "--help")).isEqualTo(ExitCode.OK);
    }
}
