package dev.jetsink.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Debian's nginx on a free loopback port answering every request with an empty 200: the machine's
 * HTTP ceiling for the same wrk load. Its configuration, pid and logs live in a temporary prefix;
 * it runs in the foreground as the current user (when that is root, the workers stay root too).
 */
final class NginxServer implements AutoCloseable {

    static final String WORKERS = "auto";

    private final Process process;
    private final int port;

    private NginxServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static NginxServer start(Path binary, Path prefix) throws Exception {
        int port = freePort();
        Files.createDirectories(prefix.resolve("logs"));
        String user = System.getProperty("user.name");
        String conf = ("root".equals(user) ? "user root;\n" : "")
            + "worker_processes " + WORKERS + ";\n"
            + "daemon off;\n"
            + "pid " + prefix.resolve("nginx.pid") + ";\n"
            + "error_log " + prefix.resolve("logs/error.log") + " warn;\n"
            + "events { worker_connections 1024; }\n"
            + "http {\n"
            + "  access_log off;\n"
            + "  client_body_temp_path " + prefix.resolve("body") + ";\n"
            + "  proxy_temp_path " + prefix.resolve("proxy") + ";\n"
            + "  fastcgi_temp_path " + prefix.resolve("fastcgi") + ";\n"
            + "  uwsgi_temp_path " + prefix.resolve("uwsgi") + ";\n"
            + "  scgi_temp_path " + prefix.resolve("scgi") + ";\n"
            + "  keepalive_requests 1000000;\n"
            + "  server {\n"
            + "    listen 127.0.0.1:" + port + ";\n"
            + "    location / { return 200; }\n"
            + "  }\n"
            + "}\n";
        Path confFile = prefix.resolve("nginx.conf");
        Files.writeString(confFile, conf);
        Process p = new ProcessBuilder(binary.toString(), "-p", prefix.toString(), "-c", confFile.toString(),
            "-e", prefix.resolve("logs/error.log").toString())
            .redirectErrorStream(true).redirectOutput(prefix.resolve("logs/stdout.log").toFile()).start();
        NginxServer nginx = new NginxServer(p, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!accepts(port)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                nginx.close();
                throw new IllegalStateException("nginx did not start: " + Files.readString(prefix.resolve("logs/error.log")));
            }
            Thread.sleep(50);
        }
        return nginx;
    }

    int port() {
        return port;
    }

    /** SIGTERM (fast shutdown), then up to 10 s before killing it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
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
