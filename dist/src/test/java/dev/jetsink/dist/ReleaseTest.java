package dev.jetsink.dist;

import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.api.StreamConfiguration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The release artifacts, built by {@code bin/package} as on a fresh machine (from a
 * copy of the sources, offline, with no jetsink artifact in the local Maven repository): the
 * archive's launcher runs check-config and serve with Maven off the PATH and delivers events; both
 * ship install steps and an env file that keeps state in the unit's state directory; the
 * Debian package has its files, conffile and a unit {@code systemd-analyze verify} accepts; and
 * installed into a throw-away root it creates its user, keeps its queue through an upgrade (the
 * entries are delivered after the restart), and keeps the queues on remove and purge unless asked.
 */
// "try": jnats' Connection.close() declares InterruptedException, yet try-with-resources is still how it is
// closed; and a Daemon resource is held only to keep the release running while the test reads the stream
@SuppressWarnings("try")
class ReleaseTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LISTENING = Pattern.compile("http listening address=127\\.0\\.0\\.1:(\\d+)");
    private static final Duration AWAIT = Duration.ofSeconds(60);
    private static final String OLD_VERSION = "0.0.9";

    @TempDir
    static Path out;
    private static String version;
    private static Path archive;
    private static Path deb;
    private static Path oldDeb;
    private static Path freshRepository;

    @TempDir
    Path work;

    @BeforeAll
    static void buildArtifacts() throws Exception {
        // The new release is built as on a fresh machine: bin/package runs the whole Maven build
        // from a copy of the sources, offline, against a local repository holding the third-party
        // artifacts of this one but no jetsink artifact (an earlier mvn install would hide a
        // build that resolves jetsink-core from the repository instead of the reactor).
        Path sources = copyOfSources(out.resolve("src"));
        freshRepository = thirdPartyOnlyRepository(out.resolve("m2"));
        List<String> made = run(sources, Map.of(), Duration.ofMinutes(10), sources.resolve("bin/package").toString(),
            "--maven-repo", freshRepository.toString(), "--offline", "--out", out.resolve("new").toString());
        archive = artifact(made, ".tar.gz");
        deb = artifact(made, ".deb");
        Path jar = REPO.resolve("server/target/jetsink.jar");
        assertThat(jar).as("the server module's shaded jar").exists();
        List<String> older = run(REPO, Map.of(), REPO.resolve("bin/package").toString(), "--jar", jar.toString(),
            "--version", OLD_VERSION, "--out", out.resolve("old").toString());
        oldDeb = artifact(older, ".deb");
        version = archive.getFileName().toString().replaceFirst("^jetsink-", "").replaceFirst("\\.tar\\.gz$", "");
    }

    /* The files git tracks or would track (not ignored build output), as they are in the work tree. */
    private static Path copyOfSources(Path copy) throws Exception {
        List<String> files = run(REPO, Map.of(), "git", "ls-files", "--cached", "--others", "--exclude-standard");
        for (String name : files) {
            Path from = REPO.resolve(name);
            if (Files.isRegularFile(from)) {
                Path to = copy.resolve(name);
                Files.createDirectories(to.getParent());
                Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return copy;
    }

    /* A local repository of symbolic links to every group of the build's own one except dev.jetsink. */
    private static Path thirdPartyOnlyRepository(Path fresh) throws IOException {
        Path local = Path.of(System.getProperty("jetsink.localRepository",
            System.getProperty("user.home") + "/.m2/repository"));
        linkAllBut(local, fresh, "dev");
        linkAllBut(local.resolve("dev"), fresh.resolve("dev"), "jetsink");
        return fresh;
    }

    private static void linkAllBut(Path from, Path to, String skipped) throws IOException {
        Files.createDirectories(to);
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> entries = Files.list(from)) {
            for (Path p : entries.toList()) {
                if (!p.getFileName().toString().equals(skipped)) {
                    Files.createSymbolicLink(to.resolve(p.getFileName()), p);
                }
            }
        }
    }

    @Test
    void theReleaseBuildsWithNoJetsinkArtifactInTheLocalRepository() throws Exception {
        assertThat(freshRepository.resolve("dev/jetsink"))
            .as("the build resolved the jetsink modules through the reactor and installed none").doesNotExist();
        run(work, Map.of(), "tar", "-xzf", archive.toString());
        String notices = Files.readString(work.resolve("jetsink-" + version + "/licenses/THIRD-PARTY.txt"));
        assertThat(notices)
            .as("the bundled libraries come from the list the build wrote into the jar")
            .contains("io.nats:jnats:2.26.2  licence: The Apache License, Version 2.0")
            .doesNotContain("dev.jetsink");
    }

    /* The links only: JUnit would delete them too, but says so once per link. */
    @AfterAll
    static void removeTheRepositoryLinks() throws IOException {
        for (Path dir : List.of(freshRepository.resolve("dev"), freshRepository)) {
            try (Stream<Path> entries = Files.list(dir)) {
                for (Path p : entries.toList()) {
                    if (Files.isSymbolicLink(p)) {
                        Files.delete(p);
                    }
                }
            }
        }
    }

    /* The path bin/package printed for one artifact (Maven's stderr, merged in, may carry colour codes). */
    private static Path artifact(List<String> output, String suffix) {
        String line = output.stream().filter(l -> l.endsWith(suffix)).reduce((a, b) -> b).orElseThrow();
        return Path.of(line.substring(line.indexOf('/')));
    }

    @Test
    void theArchiveRunsWithOnlyJavaOnThePathAndDeliversEvents() throws Exception {
        run(work, Map.of(), "tar", "-xzf", archive.toString());
        Path home = work.resolve("jetsink-" + version);
        assertThat(home.resolve("bin/jetsink")).isExecutable();
        assertThat(Files.readString(home.resolve("etc/jetsink.env")))
            .contains("#RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS=30")
            .contains("#RUSTFS_AUDIT_NATS_QUEUE_LIMIT=100000")
            .contains("#JETSINK_HTTP_ADDRESS=127.0.0.1:9020");
        assertThat(home.resolve("systemd/jetsink.service")).exists();
        assertThat(home.resolve("systemd/jetsink.socket")).exists();
        assertThat(home.resolve("docs/OPERATIONS.md")).exists();
        assertThat(Files.readString(home.resolve("INSTALL.md")))
            .as("the steps by hand name the paths the unit expects")
            .contains("useradd --system", "/var/lib/jetsink", "/etc/jetsink/jetsink.env", "/usr/bin/jetsink",
                "systemd/jetsink.service", "systemd/jetsink.socket", "systemctl daemon-reload", "systemctl enable --now jetsink");
        assertThat(Files.readString(home.resolve("licenses/THIRD-PARTY.txt")))
            .contains("io.nats:jnats:2.26.2  licence: The Apache License, Version 2.0")
            .contains("org.eclipse.jetty:jetty-server:12.1.14");

        Map<String, String> noMaven = Map.of("PATH", pathWithout("mvn").toString());
        assertThat(runResult(work, noMaven, "sh", "-c", "command -v mvn || echo no-maven").out())
            .as("Maven is off the PATH").contains("no-maven");
        String versionLine = run(work, noMaven, home.resolve("bin/jetsink").toString(), "--version").get(0);
        assertThat(versionLine).startsWith("jetsink " + version + " (commit ");

        Result noJava = runResult(work, Map.of("PATH", pathWithout("mvn", "java").toString()),
            home.resolve("bin/jetsink").toString(), "--version");
        assertThat(noJava.exit()).isEqualTo(1);
        assertThat(noJava.out()).contains("no java found: install a Java 17 or later runtime");

        try (NatsServer nats = NatsServer.startDefault(); Connection admin = Nats.connect(nats.url())) {
            Streams.create(admin, StreamSpec.of("RELEASE", "release.events").duplicateWindow(Duration.ofMinutes(5)).build());
            Path config = work.resolve("jetsink.env");
            Files.writeString(config, Files.readString(home.resolve("etc/jetsink.env"))
                + notifyTarget(nats.url(), "release.events", "RELEASE", work.resolve("queue")));
            Result check = runResult(work, noMaven, home.resolve("bin/jetsink").toString(), "check-config",
                "--config", config.toString());
            assertThat(check.exit()).as(check.out()).isZero();
            assertThat(check.out()).contains("configuration is valid");
            try (Daemon d = Daemon.start(work, noMaven, home.resolve("bin/jetsink"), config)) {
                for (int i = 0; i < 5; i++) {
                    assertThat(d.post("/notify", event("photos", "archive-" + i + ".jpg")).statusCode()).isEqualTo(200);
                }
                await().atMost(AWAIT).until(() -> Streams.readAll(admin, "RELEASE").size() == 5);
            }
        }
    }

    @Test
    void theDebianPackageHoldsItsFilesAConffileAndAUnitSystemdAccepts() throws Exception {
        assertThat(run(work, Map.of(), "dpkg-deb", "--field", deb.toString(), "Package", "Version", "Architecture", "Depends"))
            .containsExactly("Package: jetsink", "Version: " + version.replace('-', '~'), "Architecture: all",
                "Depends: default-jre-headless (>= 2:1.17) | java17-runtime-headless, passwd, procps");
        String contents = String.join("\n", run(work, Map.of(), "dpkg-deb", "--contents", deb.toString()));
        assertThat(contents).contains("./usr/share/jetsink/lib/jetsink.jar", "./usr/share/jetsink/bin/jetsink",
            "./usr/bin/jetsink -> ../share/jetsink/bin/jetsink", "./etc/jetsink/jetsink.env",
            "./lib/systemd/system/jetsink.service", "./usr/share/doc/jetsink/OPERATIONS.md",
            "./usr/share/doc/jetsink/INSTALL.md",
            "./usr/share/doc/jetsink/licenses/THIRD-PARTY.txt");
        Path control = work.resolve("control");
        run(work, Map.of(), "dpkg-deb", "--control", deb.toString(), control.toString());
        assertThat(Files.readString(control.resolve("conffiles")).trim()).isEqualTo("/etc/jetsink/jetsink.env");

        Path root = work.resolve("unitroot");
        run(work, Map.of(), "dpkg-deb", "-x", deb.toString(), root.toString());
        String unit = Files.readString(root.resolve("lib/systemd/system/jetsink.service"));
        assertThat(unit).contains("User=jetsink", "StateDirectory=jetsink", "ProtectSystem=strict", "ProtectHome=true",
            "NoNewPrivileges=true", "PrivateTmp=true", "Restart=on-failure", "RestartSec=5s", "TimeoutStopSec=60s",
            "ExecStart=/usr/bin/jetsink serve --config /etc/jetsink/jetsink.env", "ExecReload=/bin/kill -HUP $MAINPID",
            "#LoadCredential=notify-token:/etc/jetsink/secrets/notify-token");
        assertThat(unit).doesNotContain("\nEnvironmentFile=");
        // systemd-analyze needs the targets the unit orders itself against: the host's units
        run(work, Map.of(), "sh", "-c", "cp -rn /usr/lib/systemd/system/. '" + root.resolve("lib/systemd/system") + "'");
        // ... and ExecReload='s /bin/kill, which the package's procps dependency provides
        run(work, Map.of(), "sh", "-c", "mkdir -p '" + root.resolve("bin") + "' && cp /bin/kill '" + root.resolve("bin") + "'");
        Result verify = runResult(work, Map.of(), "systemd-analyze", "verify", "--root=" + root,
            "/lib/systemd/system/jetsink.service");
        assertThat(verify.exit()).as(verify.out()).isZero();
        assertThat(verify.out()).isEmpty();

        // The socket unit holds the port across restarts and upgrades; the service serves on it.
        assertThat(contents).contains("./lib/systemd/system/jetsink.socket");
        assertThat(unit).contains("Requires=jetsink.socket", "After=jetsink.socket", "Also=jetsink.socket");
        assertThat(Files.readString(root.resolve("lib/systemd/system/jetsink.socket")))
            .contains("ListenStream=127.0.0.1:9020", "FileDescriptorName=http", "Accept=no", "WantedBy=sockets.target");
        Result verifySocket = runResult(work, Map.of(), "systemd-analyze", "verify", "--root=" + root,
            "/lib/systemd/system/jetsink.socket");
        assertThat(verifySocket.exit()).as(verifySocket.out()).isZero();
        assertThat(verifySocket.out()).isEmpty();
    }

    /*
     * Both artifacts ship an env file that keeps admin-applied targets (JETSINK_DATA_DIR) and the
     * queues of the env's targets under the unit's StateDirectory, the one place it may write.
     */
    @Test
    void thePackagedEnvKeepsStateInTheUnitsStateDirectory() throws Exception {
        run(work, Map.of(), "tar", "-xzf", archive.toString());
        Path root = work.resolve("debroot");
        run(work, Map.of(), "dpkg-deb", "-x", deb.toString(), root.toString());
        String unit = Files.readString(root.resolve("lib/systemd/system/jetsink.service"));
        assertThat(unit).contains("\nStateDirectory=jetsink\n", "\nProtectSystem=strict\n");
        for (Path env : List.of(work.resolve("jetsink-" + version + "/etc/jetsink.env"), root.resolve("etc/jetsink/jetsink.env"))) {
            List<String> set = Files.readAllLines(env).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
            assertThat(set).as(env.toString()).containsExactly("JETSINK_DATA_DIR=/var/lib/jetsink/data",
                "RUSTFS_NOTIFY_NATS_ENABLE=off", "RUSTFS_NOTIFY_NATS_QUEUE_DIR=/var/lib/jetsink",
                "RUSTFS_AUDIT_NATS_ENABLE=off", "RUSTFS_AUDIT_NATS_QUEUE_DIR=/var/lib/jetsink");
        }
        Result check = runResult(work, Map.of(), work.resolve("jetsink-" + version + "/bin/jetsink").toString(),
            "check-config", "--config", root.resolve("etc/jetsink/jetsink.env").toString());
        assertThat(check.exit()).as(check.out()).isZero();
        assertThat(check.out()).contains("data dir:      /var/lib/jetsink/data");
    }

    @Test
    void installUpgradeAndRemoveKeepTheQueueAndItIsDeliveredAfterTheRestart() throws Exception {
        Path root = throwAwayRoot();
        dpkg(root, Map.of(), "-i", oldDeb.toString());
        assertThat(Files.readString(root.resolve("etc/passwd"))).contains("jetsink:x:")
            .contains(":/var/lib/jetsink:/usr/sbin/nologin");
        assertThat(root.resolve("var/lib/jetsink")).isDirectory();
        assertThat(Files.getPosixFilePermissions(root.resolve("etc/jetsink/jetsink.env")).toString())
            .as("the env file may hold secrets").doesNotContain("OTHERS_READ");
        Path env = root.resolve("etc/jetsink/jetsink.env");
        Path launcher = root.resolve("usr/share/jetsink/bin/jetsink");
        Map<String, String> path = Map.of("PATH", System.getenv("PATH"));

        try (NatsServer nats = NatsServer.startDefault(); Connection admin = Nats.connect(nats.url())) {
            // the operator's edit of the conffile, which upgrades must keep
            Files.writeString(env, Files.readString(env)
                + notifyTarget(nats.url(), "upgrade.events", "UPGRADE", root.resolve("var/lib/jetsink")));
            // no stream yet: the events wait in the queue
            try (Daemon d = Daemon.start(work, path, launcher, env)) {
                for (int i = 0; i < 4; i++) {
                    assertThat(d.post("/notify", event("photos", "upgrade-" + i + ".jpg")).statusCode()).isEqualTo(200);
                }
                assertThat(admin.jetStreamManagement().getStreamNames()).doesNotContain("UPGRADE");
            }
            String edited = Files.readString(env);
            assertThat(run(work, Map.of(), "sh", "-c", "ls '" + root.resolve("var/lib/jetsink/notify-nats-_") + "'"))
                .as("queue segments on disk").isNotEmpty();

            dpkg(root, Map.of(), "-i", deb.toString());
            assertThat(run(work, Map.of(), launcher.toString(), "--version").get(0)).startsWith("jetsink " + version);
            assertThat(Files.readString(env)).as("the conffile edit survives the upgrade").isEqualTo(edited);

            Streams.create(admin, StreamSpec.of("UPGRADE", "upgrade.events").duplicateWindow(Duration.ofMinutes(5)).build());
            try (Daemon d = Daemon.start(work, path, launcher, env)) {
                await().atMost(AWAIT).until(() -> Streams.readAll(admin, "UPGRADE").size() == 4);
            }
            List<StoredMessage> stored = Streams.readAll(admin, "UPGRADE");
            assertThat(stored).extracting(m -> m.header("Jetsink-Key").orElseThrow())
                .containsExactlyInAnyOrder("upgrade-0.jpg", "upgrade-1.jpg", "upgrade-2.jpg", "upgrade-3.jpg");
        }

        dpkg(root, Map.of(), "-r", "jetsink");
        assertThat(root.resolve("usr/share/jetsink/lib/jetsink.jar")).doesNotExist();
        assertThat(root.resolve("var/lib/jetsink/notify-nats-_")).as("remove keeps the queues").isDirectory();
        assertThat(env).as("remove keeps the conffile").exists();
        dpkg(root, Map.of(), "-P", "jetsink");
        assertThat(env).as("purge removes the conffile").doesNotExist();
        assertThat(root.resolve("var/lib/jetsink/notify-nats-_")).as("purge keeps the queues unless asked").isDirectory();

        dpkg(root, Map.of(), "-i", deb.toString());
        dpkg(root, Map.of("JETSINK_PURGE_STATE", "yes"), "-P", "jetsink");
        assertThat(root.resolve("var/lib/jetsink")).as("purge with JETSINK_PURGE_STATE=yes removes them").doesNotExist();
    }

    /**
     * OPERATIONS' "Production in 15 minutes", as its reader would do it on a packaged host: the
     * walk's own target lines (address and queue root pointed at this test's server and root), its
     * `stream-plan --apply` and strict `check-config --connect` command lines as written (the env
     * file's path pointed at this test's), the MinIO body it shows posted to the daemon, and
     * `stream-tail` showing the event.
     */
    @Test
    void theProductionWalkOfOperationsPutsASendersEventIntoALimitedStream() throws Exception {
        String walk = section(Files.readString(REPO.resolve("docs/OPERATIONS.md")), "## Production in 15 minutes", "\n## 1.");
        List<String> targetLines = walk.lines().map(String::strip)
            .filter(l -> l.startsWith("RUSTFS_NOTIFY_NATS_")).toList();
        assertThat(targetLines).as("step 2's target").isNotEmpty();
        String body = section(walk, "<<'JSON'\n", "\nJSON\n").strip();
        assertThat(body).as("step 5's sender body").startsWith("{").contains("\"photos\"");

        Path root = throwAwayRoot();
        dpkg(root, Map.of(), "-i", deb.toString());
        Path env = root.resolve("etc/jetsink/jetsink.env");
        Path launcher = root.resolve("usr/share/jetsink/bin/jetsink");
        Map<String, String> path = Map.of("PATH", System.getenv("PATH"));
        try (NatsServer nats = NatsServer.startDefault(); Connection admin = Nats.connect(nats.url())) {
            String target = targetLines.stream()
                .map(l -> l.startsWith("RUSTFS_NOTIFY_NATS_ADDRESS=") ? "RUSTFS_NOTIFY_NATS_ADDRESS=" + nats.url() : l)
                .map(l -> l.startsWith("RUSTFS_NOTIFY_NATS_QUEUE_DIR=")
                    ? "RUSTFS_NOTIFY_NATS_QUEUE_DIR=" + root.resolve("var/lib/jetsink") : l)
                .collect(Collectors.joining("\n"));
            Files.writeString(env, Files.readString(env) + "\nJETSINK_HTTP_ADDRESS=127.0.0.1:0\nJETSINK_DATA_DIR="
                + root.resolve("var/lib/jetsink/data") + "\n" + target + "\n");

            // The walk's arguments as written; only the env file moves, to the throw-away root's copy.
            List<String> planArgs = walkCommand(walk, "stream-plan", env);
            assertThat(planArgs).contains("--apply", "--max-age", "--max-bytes");
            Result plan = runResult(work, path, launcher(launcher, planArgs));
            assertThat(plan.exit()).as(plan.out()).isZero();
            StreamConfiguration made = admin.jetStreamManagement().getStreamInfo("RUSTFS_EVENTS").getConfiguration();
            assertThat(made.getMaxAge()).isEqualTo(Duration.ofDays(7));
            assertThat(made.getMaxBytes()).isEqualTo(10L << 30);

            // As written too. Run as root it would check as the jetsink account of the host's
            // /etc/passwd: the throw-away root's jetsink is not the host's, so where the host has
            // none it checks as the current user, which the first line names.
            List<String> checkArgs = walkCommand(walk, "check-config", env);
            assertThat(checkArgs).contains("--strict", "--connect");
            Result check = runResult(work, path, launcher(launcher, checkArgs));
            assertThat(check.exit()).as(check.out()).isZero();
            assertThat(check.out()).contains("files and queue directories checked as").contains("OK");

            try (Daemon d = Daemon.start(work, path, launcher, env)) {
                assertThat(d.post("/notify", body).statusCode()).isEqualTo(200);
                await().atMost(AWAIT).until(() -> Streams.readAll(admin, "RUSTFS_EVENTS").size() == 1);
            }
            Result tail = runResult(work, path, launcher.toString(), "stream-tail", "--target", "_",
                "--config", env.toString(), "--last", "1", "--full");
            assertThat(tail.exit()).as(tail.out()).isZero();
            assertThat(tail.out()).contains("subject=rustfs.events").contains("msg_id=").contains("photos")
                .contains("cat 1.jpg");
        }
    }

    /**
     * The arguments of the walk's {@code sudo jetsink <command> ...} line, continuation lines
     * joined, with the packaged env file's path replaced by {@code env}.
     */
    private static List<String> walkCommand(String walk, String command, Path env) {
        String line = section(walk, "sudo jetsink " + command + " ", "\n   ```").replaceAll("\\\\\n\\s*", " ");
        line = line.lines().findFirst().orElseThrow().strip();
        List<String> args = new ArrayList<>(List.of(command));
        for (String arg : line.split("\\s+")) {
            args.add(arg.equals("/etc/jetsink/jetsink.env") ? env.toString() : arg);
        }
        assertThat(args).as("the walk's %s line names the packaged env file", command).contains(env.toString());
        return args;
    }

    private static String[] launcher(Path launcher, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(args);
        return cmd.toArray(String[]::new);
    }

    private static String section(String text, String from, String to) {
        int start = text.indexOf(from);
        assertThat(start).as("'%s' in the text", from).isNotNegative();
        int end = text.indexOf(to, start + from.length());
        assertThat(end).as("'%s' after '%s'", to, from).isPositive();
        return text.substring(start + from.length(), end);
    }

    private Path throwAwayRoot() throws IOException {
        Path root = work.resolve("root");
        for (String dir : List.of("var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers", "etc")) {
            Files.createDirectories(root.resolve(dir));
        }
        Files.writeString(root.resolve("var/lib/dpkg/status"), "");
        Files.writeString(root.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n");
        Files.writeString(root.resolve("etc/group"), "root:x:0:\n");
        Files.writeString(root.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");
        Files.writeString(root.resolve("etc/gshadow"), "root:*::\n");
        return root;
    }

    /* dpkg on the throw-away root: maintainer scripts run without chroot and see DPKG_ROOT. */
    private void dpkg(Path root, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("dpkg", "--root=" + root, "--force-script-chrootless",
            "--force-depends", "--force-confold", "--log=/dev/null"));
        cmd.addAll(List.of(args));
        run(work, env, cmd.toArray(String[]::new));
    }

    private Path pathWithout(String... tools) throws IOException {
        Path bin = Files.createDirectories(work.resolve("path-" + String.join("-", tools)));
        List<String> skip = List.of(tools);
        for (String dir : System.getenv("PATH").split(":")) {
            Path d = Path.of(dir);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> entries = Files.list(d)) {
                for (Path p : entries.toList()) {
                    String name = p.getFileName().toString();
                    if (skip.stream().anyMatch(name::startsWith) || Files.exists(bin.resolve(name), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        continue;
                    }
                    Files.createSymbolicLink(bin.resolve(name), p);
                }
            }
        }
        return bin;
    }

    /**
     * Env-file lines of one JetStream notify target, an HTTP port the daemon picks, and a data
     * directory beside the queue (the packaged one, /var/lib/jetsink/data, is the host's).
     */
    private static String notifyTarget(String url, String subject, String stream, Path queueDir) {
        return String.join("\n",
            "JETSINK_HTTP_ADDRESS=127.0.0.1:0",
            "JETSINK_DATA_DIR=" + queueDir.resolve("data"),
            "RUSTFS_NOTIFY_NATS_ENABLE=on",
            "RUSTFS_NOTIFY_NATS_ADDRESS=" + url,
            "RUSTFS_NOTIFY_NATS_SUBJECT=" + subject,
            "RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE=on",
            "RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME=" + stream,
            "RUSTFS_NOTIFY_NATS_QUEUE_DIR=" + queueDir, "");
    }

    private static String event(String bucket, String key) {
        return "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"" + bucket + "/" + key + "\",\"Records\":[{"
            + "\"eventVersion\":\"2.0\",\"eventSource\":\"minio:s3\",\"eventName\":\"s3:ObjectCreated:Put\","
            + "\"s3\":{\"bucket\":{\"name\":\"" + bucket + "\"},\"object\":{\"key\":\"" + key + "\",\"size\":1}}}]}";
    }

    record Result(int exit, String out) {
    }

    private static Result runResult(Path dir, Map<String, String> env, String... cmd) throws Exception {
        return runResult(dir, env, Duration.ofSeconds(120), cmd);
    }

    private static Result runResult(Path dir, Map<String, String> env, Duration limit, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("RUSTFS_") || k.startsWith("JETSINK_") || k.equals("JAVA_HOME"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)).as(String.join(" ", cmd)).isTrue();
        return new Result(p.exitValue(), output);
    }

    private static List<String> run(Path dir, Map<String, String> env, String... cmd) throws Exception {
        return run(dir, env, Duration.ofSeconds(120), cmd);
    }

    private static List<String> run(Path dir, Map<String, String> env, Duration limit, String... cmd) throws Exception {
        Result r = runResult(dir, env, limit, cmd);
        assertThat(r.exit()).as(String.join(" ", cmd) + "\n" + r.out()).isZero();
        return r.out().lines().filter(l -> !l.isBlank()).toList();
    }

    /** {@code jetsink serve --config FILE} through a release's launcher; its port read from the log. */
    private static final class Daemon implements AutoCloseable {
        private final Process process;
        private final CompletableFuture<Integer> port = new CompletableFuture<>();
        private final List<String> log = new ArrayList<>();
        private final HttpClient http = HttpClient.newHttpClient();

        private Daemon(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (log) {
                            log.add(line);
                        }
                        Matcher m = LISTENING.matcher(line);
                        if (m.find()) {
                            port.complete(Integer.parseInt(m.group(1)));
                        }
                    }
                } catch (IOException e) {
                    port.completeExceptionally(e);
                }
                port.completeExceptionally(new IllegalStateException("serve exited: " + log));
            }, "release-serve-log");
            reader.setDaemon(true);
            reader.start();
        }

        static Daemon start(Path dir, Map<String, String> env, Path launcher, Path config) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "serve", "--config", config.toString())
                .directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("RUSTFS_") || k.startsWith("JETSINK_") || k.equals("JAVA_HOME"));
            pb.environment().putAll(new HashMap<>(env));
            return new Daemon(pb.start());
        }

        HttpResponse<String> post(String path, String body) throws Exception {
            int p = port.get(60, TimeUnit.SECONDS);
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        }

        /** SIGTERM, up to 60 s, then kill; interrupted while waiting, it returns with the interrupt flag set. */
        @Override
        public void close() {
            process.destroy(); // SIGTERM: the graceful close (DESIGN.md "Daemon")
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
