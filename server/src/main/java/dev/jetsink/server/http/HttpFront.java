package dev.jetsink.server.http;

import dev.jetsink.internal.config.HttpSettings;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's HTTP server: Jetty's non-blocking connector with the limits of
 * {@link HttpSettings} (idle and request timeouts, a connection cap at which a new connection
 * takes the place of the longest-idle one ({@link ConnectionCap}), a header size limit answered
 * 431), optional TLS, and the
 * handler tree built in {@link #serve}: intake gate → routes → one handler per route family.
 * Requests whose body is being read hold no thread; a thread is taken while a request's events are
 * made durable, so concurrent requests meet in the queue's group commit.
 */
public final class HttpFront {

    private static final Logger log = LoggerFactory.getLogger(HttpFront.class);
    /** Threads for handlers; each blocks only while its events are made durable (or health is probed). */
    static final int MAX_THREADS = 200;
    /**
     * While handing over, a connection with no request for this long is closed; senders that post
     * continuously get their next answer with {@code Connection: close} long before.
     */
    static final Duration HAND_OVER_IDLE = Duration.ofSeconds(1);
    /** The idle timeout of open connections while the connection cap is reached and none is idle. */
    static final Duration AT_LIMIT_IDLE = Duration.ofSeconds(2);

    private final Server server;
    private final HandOverConnector connector;
    private final RequestDeadlines deadlines;
    private final Optional<HttpTls> tls;
    private final boolean inherited;
    private final ConnectionCap cap;
    private final Gate gate = new Gate();

    private HttpFront(Server server, HandOverConnector connector, RequestDeadlines deadlines, Optional<HttpTls> tls,
                      boolean inherited, ConnectionCap cap) {
        this.server = server;
        this.connector = connector;
        this.deadlines = deadlines;
        this.tls = tls;
        this.inherited = inherited;
        this.cap = cap;
    }

    /**
     * Binds {@code host:port} (port 0 picks a free one) and serves nothing until {@link #serve}.
     * TLS material is read here, so a bad certificate fails the start before any queue opens.
     */
    public static HttpFront bind(String hostPort, HttpSettings settings) throws IOException {
        return open(hostPort, settings, Optional.empty());
    }

    /**
     * Like {@link #bind}, but serves on {@code inherited} when present: a socket the service
     * manager holds open across restarts ({@link InheritedSocket}); {@code hostPort} is then unused.
     */
    public static HttpFront open(String hostPort, HttpSettings settings, Optional<ServerSocketChannel> inherited)
            throws IOException {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        if (inherited.isPresent()) {
            warnIfElsewhere(host, port, inherited.get());
        }
        Optional<HttpTls> tls = settings.tls().isPresent() ? Optional.of(HttpTls.load(settings.tls().get()))
            : Optional.empty();

        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 4, 60_000);
        threads.setName("jetsink-http");
        threads.setDaemon(true);
        Server server = new Server(threads);
        server.setErrorHandler(new JsonErrorHandler());
        HttpConfiguration config = new HttpConfiguration();
        config.setRequestHeaderSize(settings.maxHeaderBytes());
        config.setSendServerVersion(false);
        config.setSendXPoweredBy(false);
        if (tls.isPresent()) {
            config.addCustomizer(new SecureRequestCustomizer(false, false, -1, false));
        }
        HttpConnectionFactory http = new HttpConnectionFactory(config);
        ConnectionFactory[] factories = tls.isPresent()
            ? new ConnectionFactory[] {new SslConnectionFactory(tls.get().factory(), HttpVersion.HTTP_1_1.asString()), http}
            : new ConnectionFactory[] {http};
        HandOverConnector connector = new HandOverConnector(server, inherited.isPresent(), factories);
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(settings.idleTimeout().toMillis());
        connector.setAcceptQueueSize(1024);
        RequestDeadlines deadlines = new RequestDeadlines(settings.requestTimeout(), connector.getScheduler());
        connector.addBean(deadlines);
        server.addConnector(connector);
        // At the cap a new connection takes the place of the longest-idle one (ConnectionCap).
        ConnectionCap cap = new ConnectionCap(connector, settings.maxConnections(), AT_LIMIT_IDLE);
        connector.addBean(cap);
        try {
            if (inherited.isPresent()) {
                connector.open(inherited.get());
            } else {
                connector.open();
            }
        } catch (IOException e) {
            if (e.getCause() instanceof java.net.BindException bind) {
                throw new java.net.BindException("cannot bind " + hostPort + ": " + bind.getMessage());
            }
            throw e;
        }
        return new HttpFront(server, connector, deadlines, tls, inherited.isPresent(), cap);
    }

    /**
     * The inherited socket decides where the daemon listens; the configured address still tells
     * {@code jetsink status} and the failed-store commands where to dial, so a difference is worth
     * a warning.
     */
    private static void warnIfElsewhere(String host, int port, ServerSocketChannel inherited) throws IOException {
        InetSocketAddress socket = (InetSocketAddress) inherited.getLocalAddress();
        InetSocketAddress configured = new InetSocketAddress(host, port);
        if (socket.getPort() != port || !socket.getAddress().equals(configured.getAddress())) {
            log.warn("the inherited socket listens on {}:{} but JETSINK_HTTP_ADDRESS is {}:{}; the daemon serves the "
                + "socket, while jetsink status and jetsink failed dial JETSINK_HTTP_ADDRESS: set it to the socket's "
                + "address", socket.getAddress().getHostAddress(), socket.getPort(), host, port);
        }
    }

    /** The request clock the handlers that read bodies report to. */
    public RequestDeadlines deadlines() {
        return deadlines;
    }

    /** Starts serving {@code routes} behind the intake gate. */
    public void serve(Handler routes) throws IOException {
        server.setHandler(new GateHandler(gate, deadlines, routes));
        try {
            server.start();
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("http server did not start: " + e.getMessage(), e);
        }
        tls.ifPresent(t -> t.watch(connector.getScheduler()));
        InetSocketAddress a = address();
        log.info("http listening address={}:{} tls={}{}", a.getAddress().getHostAddress(), a.getPort(),
            tls.isPresent() ? "on" : "off", inherited ? " socket=inherited" : "");
    }

    public InetSocketAddress address() {
        if (inherited) {
            return new InetSocketAddress(boundAddress().getAddress(), connector.getLocalPort());
        }
        return new InetSocketAddress(connector.getHost() == null ? "0.0.0.0" : connector.getHost(),
            connector.getLocalPort());
    }

    private InetSocketAddress boundAddress() {
        Object transport = connector.getTransport();
        if (transport instanceof ServerSocketChannel channel) {
            try {
                return (InetSocketAddress) channel.getLocalAddress();
            } catch (IOException | ClassCastException e) {
                // closed already: fall through
            }
        }
        return new InetSocketAddress("0.0.0.0", connector.getLocalPort());
    }

    /** True when the listening socket came from the service manager, which keeps it open across restarts. */
    public boolean inherited() {
        return inherited;
    }

    /**
     * The first step of a restart under a service manager that holds the socket: stops accepting
     * (connections that arrive now wait in the socket's backlog for the next process), keeps
     * answering requests on the connections already open — each answer with
     * {@code Connection: close}, so the sender reconnects to the next process — and waits up to
     * {@code atMost} for every connection to close. Connections idle for {@link #HAND_OVER_IDLE}
     * are closed. True when none is left.
     */
    public boolean handOver(Duration atMost) throws InterruptedException {
        gate.handOver();
        return connector.handOver(HAND_OVER_IDLE, atMost);
    }

    /** Connections open now. */
    public int openConnections() {
        return connector.getConnectedEndPoints().size();
    }

    /** Turns new requests away with 503 and waits up to {@code atMost} for those in progress. */
    public boolean closeIntake(Duration atMost) throws InterruptedException {
        return gate.closeAndDrain(atMost);
    }

    public Gate gate() {
        return gate;
    }

    /** Registers the gauges of the HTTP port itself: the TLS certificate's expiry, when TLS is on. */
    public void bindMetrics(MeterRegistry registry, Clock clock) {
        tls.ifPresent(t -> t.bindExpiry(registry, clock));
    }

    /** Idle connections closed so far to make room for new ones at the connection cap. */
    public long idleEvicted() {
        return cap.evicted();
    }

    /** Open connections with no request in progress, counted now. */
    public int idleConnections() {
        return cap.idleNow();
    }

    /** Stops the listener, closes every connection and the threads. */
    public void stop() {
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("http server did not stop cleanly error=\"{}\"", e.toString());
        }
        if (!server.isStarted()) {
            connector.close();
        }
    }
}
