package dev.jetsink.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A local user as {@code /etc/passwd} and {@code /etc/group} give it: uid, primary group and the
 * groups that list it. Accounts from a directory service (NSS beyond the files) are not found.
 */
record UnixAccount(String name, int uid, Set<Integer> gids) {

    static final Path PASSWD = Path.of("/etc/passwd");
    static final Path GROUP = Path.of("/etc/group");

    UnixAccount {
        gids = Set.copyOf(gids);
    }

    /** The account called {@code name} in {@code passwd} and {@code group}, if there is one. */
    static Optional<UnixAccount> lookup(String name, Path passwd, Path group) throws IOException {
        for (String line : Files.readAllLines(passwd)) {
            String[] f = line.split(":", -1);
            if (f.length >= 4 && f[0].equals(name)) {
                Set<Integer> gids = new HashSet<>();
                gids.add(Integer.parseInt(f[3]));
                for (String g : Files.readAllLines(group)) {
                    String[] gf = g.split(":", -1);
                    if (gf.length >= 4 && List.of(gf[3].split(",")).contains(name)) {
                        gids.add(Integer.parseInt(gf[2]));
                    }
                }
                return Optional.of(new UnixAccount(name, Integer.parseInt(f[2]), gids));
            }
        }
        return Optional.empty();
    }
}
