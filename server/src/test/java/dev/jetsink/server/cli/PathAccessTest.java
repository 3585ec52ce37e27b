package dev.jetsink.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The permission model over real files: the tests run as root, so each file is given its owner,
 * group and mode, and the users checked are accounts no process runs as.
 */
class PathAccessTest {
    @TempDir
    Path dir;

    private static final UnixAccount JETSINK = new UnixAccount("jetsink", 64_123, Set.of(64_123));

    @BeforeEach
    void searchableTempDir() throws Exception {
        // JUnit makes its directory 0700: nobody but root could enter it, whatever the test sets below
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void groupWriteCountsForAMemberOfTheDirectorysGroup() throws Exception {
        Path root = Files.createDirectory(dir.resolve("q"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwx---"));
        Files.setAttribute(root, "unix:gid", 64_200);
        assertThat(PathAccess.as(new UnixAccount("member", 64_124, Set.of(64_124, 64_200))).queueDirProblem(root.resolve("a/b")))
            .isEmpty();
        assertThat(PathAccess.as(JETSINK).queueDirProblem(root.resolve("a/b"))).isPresent();
    }

    @Test
    void aQueueBelowADirectoryTheUserCannotEnterIsAProblemNamingThatDirectory() throws Exception {
        Path closed = Files.createDirectory(dir.resolve("closed"));
        Path queue = Files.createDirectory(closed.resolve("queue"));
        Files.setPosixFilePermissions(queue, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        assertThat(PathAccess.as(JETSINK).queueDirProblem(queue))
            .hasValue("user jetsink cannot enter " + closed + " (owner root:root, mode 0700), above " + queue);

        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx--x--x"));
        assertThat(PathAccess.as(JETSINK).queueDirProblem(queue)).as("search alone is enough to pass").isEmpty();
    }

    @Test
    void aRootOwnedKeyOfMode0600IsUnreadableToTheDaemonsUserAndReadableOnceItsGroupMayRead() throws Exception {
        Path key = Files.writeString(dir.resolve("client.key"), "-----BEGIN PRIVATE KEY-----\nsecret-bits\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        assertThat(PathAccess.as(JETSINK).unreadable(key))
            .hasValue(key + " is not readable by user jetsink (owner root:root, mode 0600)");
        assertThat(PathAccess.currentUser().unreadable(key)).as("root reads it").isEmpty();

        Files.setAttribute(key, "unix:gid", 64_123);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r-----"));
        assertThat(PathAccess.as(JETSINK).unreadable(key)).as("jetsink's group may read it").isEmpty();
        assertThat(PathAccess.as(new UnixAccount("other", 64_300, Set.of(64_300))).unreadable(key)).isPresent();
    }

    @Test
    void aFileInADirectoryTheUserCannotEnterIsUnreadable() throws Exception {
        Path closed = Files.createDirectory(dir.resolve("tls"));
        Path ca = Files.writeString(closed.resolve("ca.pem"), "not a secret");
        Files.setPosixFilePermissions(ca, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        assertThat(PathAccess.as(JETSINK).unreadable(ca))
            .hasValue(ca + " is not readable by user jetsink: it cannot enter " + closed + " (owner root:root, mode 0700)");
    }

    @Test
    void theUnitsUserCannotUseAQueueOutsideItsStateDirectory() {
        assertThat(PathAccess.as(JETSINK).outsideUnitState(Path.of("/srv/queues/notify-nats-a")))
            .hasValueSatisfying(m -> assertThat(m).contains("outside /var/lib/jetsink")
                .contains("ReadWritePaths=/srv/queues").contains("StateDirectory=jetsink"));
        assertThat(PathAccess.as(JETSINK).outsideUnitState(Path.of("/var/lib/jetsink/notify-nats-a"))).isEmpty();
        assertThat(PathAccess.as(JETSINK).outsideUnitState(Path.of("/var/lib/jetsink/../x/notify-nats-a"))).isPresent();
        assertThat(PathAccess.currentUser().outsideUnitState(Path.of("/srv/queues/notify-nats-a"))).isEmpty();
    }

    @Test
    void anAccountIsReadFromPasswdAndGroup() throws Exception {
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\njetsink:x:998:997::/var/lib/jetsink:/usr/sbin/nologin\n");
        Path group = Files.writeString(dir.resolve("group"), "jetsink:x:997:\nssl-cert:x:110:postgres,jetsink\nother:x:5:jetsinkx\n");
        assertThat(UnixAccount.lookup("jetsink", passwd, group)).contains(new UnixAccount("jetsink", 998, Set.of(997, 110)));
        assertThat(UnixAccount.lookup("nobody", passwd, group)).isEmpty();
    }
}
