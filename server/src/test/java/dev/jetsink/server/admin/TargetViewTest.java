package dev.jetsink.server.admin;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.config.TargetValidator;
import io.nats.client.NKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** What the admin API shows of a target's auth and JetStream keys. */
class TargetViewTest {

    @TempDir
    Path dir;

    @Test
    void aSeedFileIsShownAsItsPathAndTheDomainAsItIs() throws Exception {
        String seed = new String(NKey.createUser(new SecureRandom()).getSeed());
        Path file = Files.writeString(dir.resolve("user.nk"), seed);
        Map<String, String> kv = new HashMap<>();
        kv.put("address", "127.0.0.1:4222");
        kv.put("subject", "rustfs.events");
        kv.put("jetstream_enable", "on");
        kv.put("jetstream_stream_name", "EVENTS");
        kv.put("queue_dir", dir.toString());
        kv.put("nkey_seed_file", file.toString());
        kv.put("jetstream_domain", "hub");
        TargetConfig config = TargetValidator.validateKeyValues(TargetKind.NOTIFY, "primary", kv).target().orElseThrow();

        List<Map<String, String>> shown = TargetView.keyValues(config);

        assertThat(shown).contains(Map.of("key", "nkey_seed_file", "value", file.toString()),
            Map.of("key", "jetstream_domain", "value", "hub"));
        assertThat(shown.toString()).doesNotContain(seed).doesNotContain(seed.substring(2, 12));
    }
}
