package dev.jetsink.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;

/**
 * {@code check-config}'s look at a queue directory: can the daemon's user create and write it?
 * The directory itself, or while it does not exist its nearest existing parent (the daemon creates
 * the rest), must be a directory the user may write and enter. For the user running the command
 * the file system answers; for another user ({@code --as-user}) the owner, group and mode bits are
 * read and the user's groups come from {@code /etc/passwd} and {@code /etc/group}. Not checked:
 * ACLs, SELinux or AppArmor, read-only mounts and systemd's sandbox, for which the packaged unit's
 * one writable root is {@link #UNIT_STATE_DIRECTORY}.
 */
final class QueueDirAccess {

    /** The packaged unit's {@code StateDirectory=jetsink}: with {@code ProtectSystem=strict}, all it may write. */
    static final Path UNIT_STATE_DIRECTORY = Path.of("/var/lib/jetsink");
    /** The user the packaged unit runs as. */
    static final String UNIT_USER = "jetsink";

    private final Optional<UnixAccount> account;

    /** Checks as the user running the command. */
    static QueueDirAccess currentUser() {
        return new QueueDirAccess(Optional.empty());
    }

    /** Checks as {@code account}, from the mode bits. */
    static QueueDirAccess as(UnixAccount account) {
        return new QueueDirAccess(Optional.of(account));
    }

    private QueueDirAccess(Optional<UnixAccount> account) {
        this.account = account;
    }

    /** Why the user could not create or write {@code queue}, or empty when it can. */
    Optional<String> problem(Path queue) {
        Path existing = queue;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return Optional.of("no part of " + queue + " exists");
        }
        String what = existing.equals(queue) ? "" : " (the nearest existing parent of " + queue + ")";
        if (!Files.isDirectory(existing)) {
            return Optional.of(existing + what + " is not a directory");
        }
        String who = account.map(a -> "user " + a.name()).orElse("the current user");
        boolean writable = account.isEmpty() ? Files.isWritable(existing) && Files.isExecutable(existing)
            : writableBy(existing, account.get());
        return writable ? Optional.empty() : Optional.of(existing + what + " is not writable by " + who);
    }

    /** For the packaged unit's user: a queue outside its state directory, which the unit cannot write. */
    Optional<String> outsideUnitState(Path queue) {
        if (account.filter(a -> a.name().equals(UNIT_USER)).isEmpty() || queue.normalize().startsWith(UNIT_STATE_DIRECTORY)) {
            return Optional.empty();
        }
        return Optional.of(queue + " is outside " + UNIT_STATE_DIRECTORY + ": the packaged unit (ProtectSystem=strict,"
            + " StateDirectory=jetsink) cannot write there unless a drop-in adds ReadWritePaths=");
    }

    private static boolean writableBy(Path dir, UnixAccount user) {
        if (user.uid() == 0) {
            return true;
        }
        try {
            PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class);
            int ownerUid = (Integer) Files.getAttribute(dir, "unix:uid");
            int groupGid = (Integer) Files.getAttribute(dir, "unix:gid");
            var mode = attrs.permissions();
            if (ownerUid == user.uid()) {
                return mode.containsAll(List.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));
            }
            if (user.gids().contains(groupGid)) {
                return mode.containsAll(List.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE));
            }
            return mode.containsAll(List.of(PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
