package dev.jetsink.bench;

import dev.jetsink.testkit.Nginx;
import java.nio.file.Path;

/**
 * Debian's nginx on a free loopback port answering every request with an empty 200: the machine's
 * HTTP ceiling for the same wrk load (testkit's {@link Nginx} with one {@code return 200} location).
 */
final class NginxServer implements AutoCloseable {

    private final Nginx nginx;

    private NginxServer(Nginx nginx) {
        this.nginx = nginx;
    }

    static NginxServer start(Path binary, Path prefix) throws Exception {
        return new NginxServer(Nginx.start(binary, prefix, "", "    location / { return 200; }\n"));
    }

    int port() {
        return nginx.port();
    }

    @Override
    public void close() {
        nginx.close();
    }
}
