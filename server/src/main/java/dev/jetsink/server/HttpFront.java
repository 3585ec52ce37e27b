package dev.jetsink.server;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's HTTP server: the JDK's {@link HttpServer} (keep-alive included) on a bounded pool
 * of worker threads, every handler behind the intake {@link Gate}. Requests beyond the workers wait
 * in the pool's queue; concurrent ingest requests meet in the queue's group commit.
 */
final class HttpFront {

    private static final Logger log = LoggerFactory.getLogger(HttpFront.class);
    static final int WORKERS = 32;

    private final HttpServer server;
    private final ExecutorService workers;
    private final Gate gate = new Gate();

    private HttpFront(HttpServer server, ExecutorService workers) {
        this.server = server;
        this.workers = workers;
    }

    /** Binds {@code host:port} (port 0 picks a free one); serves nothing until {@link #start}. */
    static HttpFront bind(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        // The JDK server writes a response's headers and body separately; with Nagle on, the body
        // waits for the client's delayed ACK (~40 ms) on every keep-alive request. Read once, when
        // the JDK server's configuration class loads, so it is set before the first server exists.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 128);
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor workers = new ThreadPoolExecutor(WORKERS, WORKERS, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "jetsink-http-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        workers.allowCoreThreadTimeOut(true);
        server.setExecutor(workers);
        return new HttpFront(server, workers);
    }

    /** Routes each path prefix to its handler; anything else is a JSON 404. */
    HttpFront route(Map<String, HttpHandler> routes) {
        routes.forEach((path, handler) -> server.createContext(path, gated(handler)));
        server.createContext("/", gated(ex -> HttpJson.error(ex, 404, "not found")));
        return this;
    }

    void start() {
        server.start();
        InetSocketAddress a = address();
        log.info("http listening address={}:{}", a.getAddress().getHostAddress(), a.getPort());
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    /** Turns new requests away with 503 and waits up to {@code atMost} for those in progress. */
    boolean closeIntake(Duration atMost) throws InterruptedException {
        return gate.closeAndDrain(atMost);
    }

    Gate gate() {
        return gate;
    }

    /** Stops the listener and the workers. */
    void stop() {
        server.stop(0);
        workers.shutdownNow();
    }

    private HttpHandler gated(HttpHandler handler) {
        return ex -> {
            if (!gate.enter()) {
                ex.getResponseHeaders().set("Connection", "close");
                HttpJson.error(ex, 503, "shutting down", Optional.of(Ingest.RETRY_SOON));
                return;
            }
            try {
                handler.handle(ex);
            } catch (IOException e) {
                // The client went away mid-answer; nothing to tell it.
                ex.close();
            } catch (RuntimeException e) {
                log.error("http handler failed method={} path={} error=\"{}\"", ex.getRequestMethod(),
                    ex.getRequestURI().getPath(), e.toString());
                try {
                    HttpJson.error(ex, 500, "internal error");
                } catch (IOException | RuntimeException ignored) {
                    ex.close();
                }
            } finally {
                gate.leave();
            }
        };
    }
}
