package dev.jetsink.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's nginx in the foreground on a free loopback port, with its configuration, pid, temporary
 * files and logs in a prefix directory: the HTTP ceiling of the benchmarks ({@code return 200}) and
 * the load balancer of the tests that run several daemons. It runs as the current user (as root
 * its workers stay root too). {@code bin/test} and {@code bench/run} install {@code nginx-light}
 * when nginx is missing.
 */
public final class Nginx implements AutoCloseable {

    private static final List<Path> WHERE = List.of(Path.of("/usr/sbin/nginx"), Path.of("/usr/bin/nginx"));

    private final Process process;
    private final Path prefix;
    private final int port;

    private Nginx(Process process, Path prefix, int port) {
        this.process = process;
        this.prefix = prefix;
        this.port = port;
    }

    /** The installed nginx binary. */
    public static Path binary() {
        return WHERE.stream().filter(Files::isExecutable).findFirst().orElseThrow(() -> new IllegalStateException(
            "nginx not found in " + WHERE + ": install Debian's nginx-light (bin/test does when run as root)"));
    }

    /**
     * Starts {@code binary} with an {@code http} block holding {@code httpDirectives} (e.g. an
     * {@code upstream}) and one server on the returned port whose body is {@code serverBody}.
     */
    public static Nginx start(Path binary, Path prefix, String httpDirectives, String serverBody) throws IOException, InterruptedException {
        int port = freePort();
        Files.createDirectories(prefix.resolve("logs"));
        String user = System.getProperty("user.name");
        Path errorLog = prefix.resolve("logs/error.log");
        String conf = ("root".equals(user) ? "user root;\n" : "")
            + "worker_processes auto;\n"
            + "daemon off;\n"
            + "pid " + prefix.resolve("nginx.pid") + ";\n"
            + "error_log " + errorLog + " warn;\n"
            + "events { worker_connections 1024; }\n"
            + "http {\n"
            + "  access_log off;\n"
            + "  client_body_temp_path " + prefix.resolve("body") + ";\n"
            + "  proxy_temp_path " + prefix.resolve("proxy") + ";\n"
            + "  fastcgi_temp_path " + prefix.resolve("fastcgi") + ";\n"
            + "  uwsgi_temp_path " + prefix.resolve("uwsgi") + ";\n"
            + "  scgi_temp_path " + prefix.resolve("scgi") + ";\n"
            + "  keepalive_requests 1000000;\n"
            + httpDirectives
            + "  server {\n"
            + "    listen 127.0.0.1:" + port + ";\n"
            + serverBody
            + "  }\n"
            + "}\n";
        Path confFile = prefix.resolve("nginx.conf");
        Files.writeString(confFile, conf);
        Process p = new ProcessBuilder(binary.toString(), "-p", prefix.toString(), "-c", confFile.toString(),
            "-e", errorLog.toString())
            .redirectErrorStream(true).redirectOutput(prefix.resolve("logs/stdout.log").toFile()).start();
        Nginx nginx = new Nginx(p, prefix, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!accepts(port)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                nginx.close();
                throw new IllegalStateException("nginx did not start: " + nginx.errorLog());
            }
            Thread.sleep(50);
        }
        return nginx;
    }

    public int port() {
        return port;
    }

    /** What nginx logged at warn and above (its upstream failures and retries among them). */
    public String errorLog() {
        try {
            Path log = prefix.resolve("logs/error.log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * SIGTERM (fast shutdown), then up to 10 s before killing it. Interrupted while waiting, it
     * returns at once with the thread's interrupt flag set again.
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
