package dev.jetsink.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code check-config}'s look at the paths the daemon uses, as the daemon's user: can it create
 * and write a queue directory, and read each TLS, CA, credentials, seed and secret file? A queue
 * directory, or while it does not exist its nearest existing parent (the daemon creates the
 * rest), must be one the user may write and enter; a file must be one it may read. Either way the
 * user must be able to search every directory above it. For the user running the command the file
 * system answers; for another user (the packaged unit's {@code jetsink}, or {@code --as-user})
 * the owner, group and mode bits are read, with the user's groups from {@code /etc/passwd} and
 * {@code /etc/group}. Not checked: ACLs, SELinux or AppArmor, read-only mounts, and systemd's
 * sandbox beyond the packaged unit's one writable root, {@link #UNIT_STATE_DIRECTORY}.
 */
final class PathAccess {

    /** The packaged unit's {@code StateDirectory=jetsink}: with {@code ProtectSystem=strict}, all it may write. */
    static final Path UNIT_STATE_DIRECTORY = Path.of("/var/lib/jetsink");
    /** The user the packaged unit runs as. */
    static final String UNIT_USER = "jetsink";

    private static final int READ = 4;
    private static final int WRITE = 2;
    private static final int SEARCH = 1;

    private final Optional<UnixAccount> account;

    /** Checks as the user running the command. */
    static PathAccess currentUser() {
        return new PathAccess(Optional.empty());
    }

    /** Checks as {@code account}, from the mode bits. */
    static PathAccess as(UnixAccount account) {
        return new PathAccess(Optional.of(account));
    }

    private PathAccess(Optional<UnixAccount> account) {
        this.account = account;
    }

    /** The account checked as, or empty for the user running the command. */
    Optional<UnixAccount> account() {
        return account;
    }

    /** Why the user could not create or write {@code queue}, or empty when it can. */
    Optional<String> queueDirProblem(Path queue) {
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
        if (account.isEmpty()) {
            return Files.isWritable(existing) && Files.isExecutable(existing) ? Optional.empty()
                : Optional.of(existing + what + " is not writable by the current user");
        }
        UnixAccount user = account.get();
        Optional<Path> closed = unsearchableParent(existing, user);
        if (closed.isPresent()) {
            return Optional.of("user " + user.name() + " cannot enter " + closed.get() + " " + describe(closed.get())
                + ", above " + queue);
        }
        return may(existing, user, WRITE | SEARCH) ? Optional.empty()
            : Optional.of(existing + what + " is not writable by user " + user.name() + " " + describe(existing));
    }

    /**
     * For the packaged unit's user: a queue outside its state directory, which the unit's sandbox
     * does not let it write whatever the mode bits say.
     */
    Optional<String> outsideUnitState(Path queue) {
        if (account.filter(a -> a.name().equals(UNIT_USER)).isEmpty() || queue.normalize().startsWith(UNIT_STATE_DIRECTORY)) {
            return Optional.empty();
        }
        Path allow = queue.getParent() == null ? queue : queue.getParent();
        return Optional.of(queue + " is outside " + UNIT_STATE_DIRECTORY + ", and the packaged unit (ProtectSystem=strict,"
            + " StateDirectory=jetsink) may write nowhere else: put the queue under " + UNIT_STATE_DIRECTORY
            + ", or allow the directory with a drop-in (systemctl edit jetsink: [Service] ReadWritePaths=" + allow + ")");
    }

    /**
     * Why the checked account could not read {@code file}, or empty when it can. For the user
     * running the command this is left to the configuration's own check, which already reads as
     * that user. Only owner, group and mode are named, never what the file holds.
     */
    Optional<String> unreadable(Path file) {
        if (account.isEmpty() || !Files.exists(file)) {
            return Optional.empty();
        }
        UnixAccount user = account.get();
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            return Optional.of(file + " cannot be resolved (" + e.getClass().getSimpleName() + ")");
        }
        String shown = real.equals(file) ? file.toString() : file + " (" + real + ")";
        return unsearchableParent(real, user)
            .map(parent -> shown + " is not readable by user " + user.name() + ": it cannot enter " + parent + " " + describe(parent))
            .or(() -> may(real, user, READ) ? Optional.empty()
                : Optional.of(shown + " is not readable by user " + user.name() + " " + describe(real)));
    }

    private static Optional<Path> unsearchableParent(Path path, UnixAccount user) {
        for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            if (!may(p, user, SEARCH)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code user} holds every bit of {@code bits} on {@code path}: owner, else group, else others. */
    private static boolean may(Path path, UnixAccount user, int bits) {
        if (user.uid() == 0) {
            return true;
        }
        try {
            Map<String, Object> a = Files.readAttributes(path, "unix:uid,gid,mode");
            int mode = (Integer) a.get("mode");
            int shift = (Integer) a.get("uid") == user.uid() ? 6 : user.gids().contains((Integer) a.get("gid")) ? 3 : 0;
            return ((mode >> shift) & bits) == bits;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** {@code (owner root:root, mode 0600)}: what an operator compares with {@code ls -l}. */
    private static String describe(Path path) {
        try {
            PosixFileAttributes a = Files.readAttributes(path, PosixFileAttributes.class);
            int mode = (Integer) Files.getAttribute(path, "unix:mode") & 07777;
            return "(owner " + a.owner().getName() + ":" + a.group().getName() + ", mode "
                + String.format(Locale.ROOT, "%04o", mode) + ")";
        } catch (IOException | UnsupportedOperationException e) {
            return "(owner and mode unreadable)";
        }
    }
}
