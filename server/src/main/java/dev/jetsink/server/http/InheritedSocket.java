package dev.jetsink.server.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ServerSocketChannel;
import java.util.Map;
import java.util.Optional;

/**
 * A listening socket handed to the daemon by its service manager, in systemd's socket-activation
 * protocol: {@code LISTEN_PID} names the process the sockets are for and {@code LISTEN_FDS} how
 * many there are, starting at descriptor 3 ({@code LISTEN_FDNAMES} names them).
 *
 * <p>Java can adopt an inherited listening socket only through {@link System#inheritedChannel()},
 * which looks at standard input. The launchers ({@code bin/jetsink}, the packaged
 * {@code /usr/bin/jetsink}) therefore move the socket to descriptor 0 before they exec the JVM
 * (the one named {@code http}, or the only one) — exec keeps the process id, so {@code LISTEN_PID}
 * still names the JVM. A unit with {@code StandardInput=socket} puts it there without a launcher.
 * See DESIGN.md "Restarts without refusing senders".
 */
public final class InheritedSocket {

    private InheritedSocket() {
    }

    /**
     * The inherited listening socket, or empty when the service manager passed none to this
     * process (no {@code LISTEN_FDS}, or a {@code LISTEN_PID} of another process: variables
     * inherited by accident from a parent are not ours).
     *
     * @throws IOException when sockets were passed to this process but standard input is not a
     *                     listening TCP socket (the JVM was started without the launcher)
     */
    public static Optional<ServerSocketChannel> fromServiceManager(Map<String, String> env) throws IOException {
        if (!passedToThisProcess(env, ProcessHandle.current().pid())) {
            return Optional.empty();
        }
        return Optional.of(adopt(env, System.inheritedChannel()));
    }

    /** True when {@code env} says sockets were passed to process {@code pid}. */
    static boolean passedToThisProcess(Map<String, String> env, long pid) {
        String fds = env.get("LISTEN_FDS");
        String forPid = env.get("LISTEN_PID");
        if (fds == null || forPid == null) {
            return false;
        }
        try {
            return Long.parseLong(forPid.strip()) == pid && Integer.parseInt(fds.strip()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Checks that {@code stdin}, the JVM's inherited channel, is a listening TCP socket. */
    static ServerSocketChannel adopt(Map<String, String> env, Channel stdin) throws IOException {
        String passed = "LISTEN_FDS=" + env.get("LISTEN_FDS")
            + (env.containsKey("LISTEN_FDNAMES") ? " LISTEN_FDNAMES=" + env.get("LISTEN_FDNAMES") : "");
        if (!(stdin instanceof ServerSocketChannel channel)) {
            throw new IOException("socket activation (" + passed + "): standard input is not a listening socket; "
                + "start jetsink through its launcher (bin/jetsink or /usr/bin/jetsink), which moves the socket "
                + "named http (or the only one) to standard input, or set StandardInput=socket in the unit");
        }
        if (!(channel.getLocalAddress() instanceof InetSocketAddress)) {
            throw new IOException("socket activation (" + passed + "): the inherited socket listens on "
                + channel.getLocalAddress() + ", not a TCP address; use ListenStream=host:port");
        }
        return channel;
    }
}
