package dev.jetsink;

import dev.jetsink.testkit.NatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A real nats-server per test, an admin connection to it and a queue directory, for the front-door tests. */
abstract class ServerTestBase {
    static final Duration AWAIT = Duration.ofSeconds(30);

    @TempDir
    Path queue;
    NatsServer server;
    Connection admin;

    @BeforeEach
    void startServer() throws Exception {
        server = NatsServer.startDefault();
        admin = Nats.connect(new Options.Builder().server(server.url()).maxReconnects(-1)
            .reconnectWait(Duration.ofMillis(100)).build());
    }

    @AfterEach
    void stopServer() throws Exception {
        admin.close();
        server.close();
    }
}
