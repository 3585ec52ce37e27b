package dev.jetsink.server.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** systemd's socket-activation variables, as the daemon reads them. */
class InheritedSocketTest {

    @Test
    void socketsArePassedOnlyToTheProcessLISTEN_PIDNames() {
        assertThat(InheritedSocket.passedToThisProcess(Map.of("LISTEN_FDS", "1", "LISTEN_PID", "42"), 42)).isTrue();
        assertThat(InheritedSocket.passedToThisProcess(Map.of("LISTEN_FDS", "1", "LISTEN_PID", "41"), 42))
            .as("variables inherited from a parent that was activated").isFalse();
        assertThat(InheritedSocket.passedToThisProcess(Map.of("LISTEN_FDS", "1"), 42)).isFalse();
        assertThat(InheritedSocket.passedToThisProcess(Map.of("LISTEN_FDS", "0", "LISTEN_PID", "42"), 42)).isFalse();
        assertThat(InheritedSocket.passedToThisProcess(Map.of("LISTEN_FDS", "x", "LISTEN_PID", "42"), 42)).isFalse();
        assertThat(InheritedSocket.passedToThisProcess(Map.of(), 42)).isFalse();
    }

    @Test
    void aListeningTcpSocketOnStandardInputIsAdopted() throws IOException {
        try (ServerSocketChannel listening = ServerSocketChannel.open()) {
            listening.bind(new InetSocketAddress("127.0.0.1", 0));
            assertThat(InheritedSocket.adopt(Map.of("LISTEN_FDS", "1"), listening)).isSameAs(listening);
        }
    }

    @Test
    void standardInputThatIsNoListeningSocketIsAClearStartError() throws IOException {
        Pipe pipe = Pipe.open();
        try {
            assertThatThrownBy(() -> InheritedSocket.adopt(Map.of("LISTEN_FDS", "2", "LISTEN_FDNAMES", "http:admin"), pipe.source()))
                .hasMessageContaining("LISTEN_FDS=2 LISTEN_FDNAMES=http:admin")
                .hasMessageContaining("standard input is not a listening socket")
                .hasMessageContaining("launcher");
            assertThatThrownBy(() -> InheritedSocket.adopt(Map.of("LISTEN_FDS", "1"), null))
                .hasMessageContaining("standard input is not a listening socket");
        } finally {
            pipe.source().close();
            pipe.sink().close();
        }
    }
}
