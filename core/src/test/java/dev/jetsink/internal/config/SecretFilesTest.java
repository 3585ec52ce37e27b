package dev.jetsink.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.ConfigProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretFilesTest {
    private static final String TOKEN_FILE = "RUSTFS_NOTIFY_NATS_TOKEN_FILE";

    @TempDir
    Path dir;

    private static Map<String, String> notifyTarget() {
        Map<String, String> env = new HashMap<>();
        env.put("RUSTFS_NOTIFY_NATS_ENABLE", "on");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS", "127.0.0.1:4222");
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT", "rustfs.events");
        return env;
    }

    private Path file(String name, String contents) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, contents);
        return f;
    }

    private static String messages(LoadedConfig loaded) {
        return String.join("\n", loaded.errors().stream().map(ConfigProblem::describe).toList());
    }

    @Test
    void tokenFileGivesTheTokenWithoutItsTrailingNewline() throws Exception {
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, file("token", "s3cr3t-token\n").toString());
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        assertThat(loaded.errors()).isEmpty();
        Secret token = loaded.config().targets().get(0).token().orElseThrow();
        assertThat(token.reveal()).isEqualTo("s3cr3t-token");
        assertThat(token.describe()).isEqualTo("*** (" + TOKEN_FILE + "=" + dir.resolve("token") + ")")
            .doesNotContain("s3cr3t");
    }

    @Test
    void suffixedPasswordFileAndDaemonTokenFilesAreRead() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("RUSTFS_AUDIT_NATS_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_AUDIT_NATS_ADDRESS_PRIMARY", "127.0.0.1:4222");
        env.put("RUSTFS_AUDIT_NATS_SUBJECT_PRIMARY", "rustfs.audit");
        env.put("RUSTFS_AUDIT_NATS_USERNAME_PRIMARY", "jetsink");
        env.put("RUSTFS_AUDIT_NATS_PASSWORD_PRIMARY_FILE", file("pw", "pass-word\r\n").toString());
        env.put("JETSINK_ADMIN_TOKEN_FILE", file("admin", "admin-token").toString());
        env.put("JETSINK_INGEST_TOKEN_FILE", file("ingest", "ingest-token\n").toString());
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().targets().get(0).password().orElseThrow().reveal()).isEqualTo("pass-word");
        assertThat(loaded.config().daemon().adminToken().orElseThrow().reveal()).isEqualTo("admin-token");
        assertThat(loaded.config().daemon().ingestToken().orElseThrow().reveal()).isEqualTo("ingest-token");
    }

    @Test
    void secretFileSetInTheConfigFileIsReadToo() throws Exception {
        Path config = file("jetsink.env", "RUSTFS_NOTIFY_NATS_ENABLE=on\nRUSTFS_NOTIFY_NATS_ADDRESS=127.0.0.1:4222\n"
            + "RUSTFS_NOTIFY_NATS_SUBJECT=s\n" + TOKEN_FILE + "=" + file("token", "from-file") + "\n");
        LoadedConfig loaded = ConfigLoader.load(Map.of(), Optional.of(config));
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().targets().get(0).token().orElseThrow().reveal()).isEqualTo("from-file");
    }

    @Test
    void bothFormsSetIsAnError() throws Exception {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_NATS_TOKEN", "inline-token");
        env.put(TOKEN_FILE, file("token", "file-token").toString());
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        assertThat(messages(loaded)).contains("RUSTFS_NOTIFY_NATS_TOKEN and " + TOKEN_FILE + " are both set")
            .doesNotContain("inline-token").doesNotContain("file-token");
    }

    @Test
    void missingFileIsAnErrorNamingVariableAndPath() {
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, dir.resolve("absent").toString());
        assertThat(messages(ConfigLoader.load(env, Optional.empty())))
            .contains(TOKEN_FILE + " names " + dir.resolve("absent") + ", which does not exist");
    }

    @Test
    void emptyFileIsAnError() throws Exception {
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, file("empty", "\n").toString());
        assertThat(messages(ConfigLoader.load(env, Optional.empty()))).contains(", which is empty");
    }

    @Test
    void unreadableFileIsAnError() throws Exception {
        // Root reads any file whatever its mode; this one the kernel refuses to read for everyone.
        Path unreadable = Files.createSymbolicLink(dir.resolve("locked"), Path.of("/proc/self/mem"));
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, unreadable.toString());
        assertThat(messages(ConfigLoader.load(env, Optional.empty())))
            .contains(TOKEN_FILE + " names " + unreadable + ", which cannot be read");
    }

    @Test
    void relativePathIsRefused() {
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, "secrets/token");
        assertThat(messages(ConfigLoader.load(env, Optional.empty())))
            .contains(TOKEN_FILE + " must be an absolute path or credential:NAME: secrets/token");
    }

    @Test
    void credentialNameIsReadFromTheCredentialsDirectory() throws Exception {
        file("notify-token", "cred-token\n");
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, "credential:notify-token");
        env.put("CREDENTIALS_DIRECTORY", dir.toString());
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().targets().get(0).token().orElseThrow().reveal()).isEqualTo("cred-token");
    }

    @Test
    void credentialNameWithoutCredentialsDirectoryIsAnError() {
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, "credential:notify-token");
        assertThat(messages(ConfigLoader.load(env, Optional.empty())))
            .contains("needs $CREDENTIALS_DIRECTORY").contains("LoadCredential=notify-token:");
    }

    @Test
    void credentialNameWithASlashIsRefused() {
        Map<String, String> env = notifyTarget();
        env.put(TOKEN_FILE, "credential:../etc/shadow");
        env.put("CREDENTIALS_DIRECTORY", dir.toString());
        assertThat(messages(ConfigLoader.load(env, Optional.empty()))).contains("without '/'");
    }
}
