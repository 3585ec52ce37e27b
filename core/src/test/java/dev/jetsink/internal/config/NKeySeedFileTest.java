package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import io.nats.client.NKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code nkey_seed_file} key: the file must hold a user seed, every problem is an error that
 * names the key and the file, and no message ever carries the file's content.
 */
class NKeySeedFileTest {

    @TempDir
    Path dir;

    private static String newSeed(boolean user) throws Exception {
        NKey key = user ? NKey.createUser(new SecureRandom()) : NKey.createAccount(new SecureRandom());
        return new String(key.getSeed());
    }

    private static TargetValidation check(Path seedFile) {
        Map<String, String> kv = new HashMap<>();
        kv.put("enable", "on");
        kv.put("address", "127.0.0.1:4222");
        kv.put("subject", "rustfs.events");
        kv.put("nkey_seed_file", seedFile.toString());
        return TargetValidator.validateKeyValues(TargetKind.NOTIFY, "primary", kv);
    }

    @Test
    void aFileHoldingAUserSeedIsAccepted() throws Exception {
        String seed = newSeed(true);
        Path file = Files.writeString(dir.resolve("user.nk"), "\n" + seed + "\n");

        TargetValidation v = check(file);

        assertThat(v.errors()).isEmpty();
        assertThat(v.target().orElseThrow().nkeySeedFile()).contains(file);
        assertThat(new String(NKeySeedFile.read(file))).isEqualTo(seed);
        assertThat(v.target().orElseThrow().toString()).doesNotContain(seed);
    }

    @Test
    void aMissingSeedFileIsAnErrorNamingKeyAndFile() {
        Path missing = dir.resolve("missing.nk");

        TargetValidation v = check(missing);

        assertThat(v.valid()).isFalse();
        assertThat(v.errors()).extracting(ConfigProblem::variable).containsExactly("nkey_seed_file");
        assertThat(v.errors()).extracting(ConfigProblem::message)
            .containsExactly("nkey_seed_file file does not exist: " + missing);
    }

    @Test
    void anUnreadableSeedFileIsAnError() throws Exception {
        // Root reads any file whatever its mode; this one the kernel refuses to read for everyone.
        Path unreadable = Files.createSymbolicLink(dir.resolve("unreadable.nk"), Path.of("/proc/self/mem"));

        assertThat(check(unreadable).errors()).extracting(ConfigProblem::message)
            .containsExactly("nkey_seed_file file is not readable: " + unreadable);
    }

    @Test
    void aDirectoryIsNotASeedFile() {
        assertThat(check(dir).errors()).extracting(ConfigProblem::message)
            .containsExactly("nkey_seed_file is not a regular file: " + dir);
    }

    @Test
    void aMalformedSeedIsAnErrorThatDoesNotQuoteTheFile() throws Exception {
        String almost = newSeed(true).substring(0, 50) + "AAAAAAAA";
        Path file = Files.writeString(dir.resolve("bad.nk"), almost);

        TargetValidation v = check(file);

        assertThat(v.errors()).extracting(ConfigProblem::message)
            .containsExactly("nkey_seed_file file does not hold an NKey seed (a line starting SU): " + file);
        assertThat(v.errors().toString()).doesNotContain(almost.substring(2, 20));
    }

    @Test
    void aCredsFileIsNotASeedFile() throws Exception {
        String seed = newSeed(true);
        Path creds = Files.writeString(dir.resolve("user.creds"), "-----BEGIN USER NKEY SEED-----\n" + seed
            + "\n------END USER NKEY SEED------\n");

        TargetValidation v = check(creds);

        assertThat(v.errors()).singleElement().extracting(ConfigProblem::message).asString()
            .startsWith("nkey_seed_file file does not hold an NKey seed");
        assertThat(v.errors().toString()).doesNotContain(seed);
    }

    @Test
    void anAccountSeedIsRefusedAsNotAUserSeed() throws Exception {
        String seed = newSeed(false);
        Path file = Files.writeString(dir.resolve("account.nk"), seed);

        TargetValidation v = check(file);

        assertThat(v.errors()).extracting(ConfigProblem::message)
            .containsExactly("nkey_seed_file file holds an NKey seed of type ACCOUNT, not a user seed (SU...): " + file);
        assertThat(v.errors().toString()).doesNotContain(seed);
    }

    @Test
    void aLargeFileIsRefusedUnread() throws Exception {
        Path big = Files.write(dir.resolve("big.nk"), new byte[(int) NKeySeedFile.MAX_BYTES + 1]);

        assertThat(check(big).errors()).singleElement().extracting(ConfigProblem::message).asString()
            .startsWith("nkey_seed_file file is larger than 4096 bytes");
    }
}
