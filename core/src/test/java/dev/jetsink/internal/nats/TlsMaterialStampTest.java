package dev.jetsink.internal.nats;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class TlsMaterialStampTest {
    @TempDir
    Path dir;

    @Test
    void untouchedFilesAreUnchanged() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "one");
        TlsMaterialStamp before = TlsMaterialStamp.of(List.of(ca));
        assertThat(TlsMaterialStamp.of(List.of(ca)).changedSince(before)).isFalse();
    }

    @Test
    void rotatedCertificateIsSeenByItsMtime() throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "same");
        TlsMaterialStamp before = TlsMaterialStamp.of(List.of(cert));
        Files.setLastModifiedTime(cert, FileTime.fromMillis(Files.getLastModifiedTime(cert).toMillis() + 60_000));
        assertThat(TlsMaterialStamp.of(List.of(cert)).changedSince(before)).isTrue();
    }

    @Test
    void rewriteKeepingTheMtimeIsStillSeen() throws Exception {
        Path key = Files.writeString(dir.resolve("key.pem"), "old-key");
        FileTime mtime = Files.getLastModifiedTime(key);
        TlsMaterialStamp before = TlsMaterialStamp.of(List.of(key));
        Files.writeString(key, "new-key");
        Files.setLastModifiedTime(key, mtime);
        assertThat(TlsMaterialStamp.of(List.of(key)).changedSince(before)).isTrue();
    }

    @Test
    void fileThatAppearsOrVanishesIsAChange() throws Exception {
        Path ca = dir.resolve("ca.pem");
        TlsMaterialStamp missing = TlsMaterialStamp.of(List.of(ca));
        Files.writeString(ca, "now here");
        TlsMaterialStamp present = TlsMaterialStamp.of(List.of(ca));
        assertThat(present.changedSince(missing)).isTrue();
        Files.delete(ca);
        assertThat(TlsMaterialStamp.of(List.of(ca)).changedSince(present)).isTrue();
    }

    @Test
    void toStringShowsNoContentDigest() throws Exception {
        Path key = Files.writeString(dir.resolve("key.pem"), "k");
        assertThat(TlsMaterialStamp.of(List.of(key)).toString()).contains("key.pem").contains("1 bytes")
                .doesNotContainPattern("\\[B@");
    }
}
