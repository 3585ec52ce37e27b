package dev.jetsink.server.admin;

import dev.jetsink.internal.config.TargetKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The record of admin-applied targets under {@code JETSINK_DATA_DIR} (DESIGN.md "Admin API"). */
class AppliedTargetStoreTest {

    @TempDir
    Path data;

    @Test
    void savedTargetsLoadBackWithTheirKeyValuesInOrder() throws Exception {
        AppliedTargetStore store = new AppliedTargetStore(data);
        Map<String, String> kv = new LinkedHashMap<>();
        kv.put("subject", "events");
        kv.put("address", "127.0.0.1:4222");
        kv.put("password", "secret");
        store.save(new AppliedTargetStore.Applied(TargetKind.AUDIT, "archive", kv));
        store.save(new AppliedTargetStore.Applied(TargetKind.NOTIFY, "primary", Map.of("subject", "a")));

        var loaded = store.loadAll();
        assertThat(loaded).hasSize(2);
        assertThat(loaded.get(0).kind()).isEqualTo(TargetKind.AUDIT);
        assertThat(loaded.get(0).id()).isEqualTo("archive");
        assertThat(loaded.get(0).keyValues()).containsExactlyEntriesOf(kv);
        assertThat(loaded.get(1).id()).isEqualTo("primary");
    }

    @Test
    void savingAgainReplacesTheRecordAndLeavesNoTemporaryFile() throws Exception {
        AppliedTargetStore store = new AppliedTargetStore(data);
        store.save(new AppliedTargetStore.Applied(TargetKind.NOTIFY, "primary", Map.of("subject", "a")));
        store.save(new AppliedTargetStore.Applied(TargetKind.NOTIFY, "primary", Map.of("subject", "b")));
        assertThat(store.loadAll()).singleElement().satisfies(a -> assertThat(a.keyValues()).containsEntry("subject", "b"));
        try (var files = Files.list(store.directory())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("notify-primary.json");
        }
    }

    @Test
    void damagedRecordIsSkippedAndKept() throws Exception {
        AppliedTargetStore store = new AppliedTargetStore(data);
        store.save(new AppliedTargetStore.Applied(TargetKind.NOTIFY, "primary", Map.of("subject", "a")));
        Path damaged = store.directory().resolve("audit-archive.json");
        Files.writeString(damaged, "{\"kind\":\"audit\",\"id\":", StandardCharsets.UTF_8);
        assertThat(store.loadAll()).extracting(AppliedTargetStore.Applied::id).containsExactly("primary");
        assertThat(damaged).exists();
    }

    @Test
    void deleteSaysWhetherThereWasARecord() throws Exception {
        AppliedTargetStore store = new AppliedTargetStore(data);
        store.save(new AppliedTargetStore.Applied(TargetKind.NOTIFY, "primary", Map.of("subject", "a")));
        assertThat(store.delete(TargetKind.NOTIFY, "primary")).isTrue();
        assertThat(store.delete(TargetKind.NOTIFY, "primary")).isFalse();
        assertThat(store.loadAll()).isEmpty();
    }
}
