package dev.jetsink.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class QueueDirAccessTest {
    @TempDir
    Path dir;

    private static final UnixAccount JETSINK = new UnixAccount("jetsink", 64_123, Set.of(64_123));

    @Test
    void groupWriteCountsForAMemberOfTheDirectorysGroup() throws Exception {
        Path root = Files.createDirectory(dir.resolve("q"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwx---"));
        int gid = (Integer) Files.getAttribute(root, "unix:gid");
        assertThat(QueueDirAccess.as(new UnixAccount("member", 64_124, Set.of(gid))).problem(root.resolve("a/b"))).isEmpty();
        assertThat(QueueDirAccess.as(JETSINK).problem(root.resolve("a/b"))).isPresent();
    }

    @Test
    void theUnitsUserIsWarnedOfAQueueOutsideItsStateDirectory() {
        assertThat(QueueDirAccess.as(JETSINK).outsideUnitState(Path.of("/srv/queues/notify-nats-a")))
            .hasValueSatisfying(m -> assertThat(m).contains("outside /var/lib/jetsink").contains("ReadWritePaths="));
        assertThat(QueueDirAccess.as(JETSINK).outsideUnitState(Path.of("/var/lib/jetsink/notify-nats-a"))).isEmpty();
        assertThat(QueueDirAccess.as(JETSINK).outsideUnitState(Path.of("/var/lib/jetsink/../x/notify-nats-a"))).isPresent();
        assertThat(QueueDirAccess.currentUser().outsideUnitState(Path.of("/srv/queues/notify-nats-a"))).isEmpty();
    }

    @Test
    void anAccountIsReadFromPasswdAndGroup() throws Exception {
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\njetsink:x:998:997::/var/lib/jetsink:/usr/sbin/nologin\n");
        Path group = Files.writeString(dir.resolve("group"), "jetsink:x:997:\nssl-cert:x:110:postgres,jetsink\nother:x:5:jetsinkx\n");
        assertThat(UnixAccount.lookup("jetsink", passwd, group)).contains(new UnixAccount("jetsink", 998, Set.of(997, 110)));
        assertThat(UnixAccount.lookup("nobody", passwd, group)).isEmpty();
    }
}
