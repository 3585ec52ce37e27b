package dev.jetsink.server.http;

import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A store's webhook client keeps its connection open between events (HTTP/1.1 keep-alive). */
class KeepAliveTest {

    @Test
    void severalWebhookRequestsShareOneConnection() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start();
             Socket s = new Socket("127.0.0.1", h.daemon.address().getPort())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            for (int i = 0; i < 3; i++) {
                byte[] body = WebhookFixtures.putPhoto(i).getBytes(StandardCharsets.UTF_8);
                String head = "POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "User-Agent: MinIO (linux; amd64) minio-go/v7.0.90\r\nContent-Length: " + body.length + "\r\n\r\n";
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
                int length = -1;
                for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
                    if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).trim());
                    }
                }
                char[] answer = new char[length];
                int read = 0;
                while (read < length) {
                    read += in.read(answer, read, length - read);
                }
                assertThat(new String(answer)).isEqualTo("{\"accepted\":1}");
            }
            assertThat(h.target(dev.jetsink.internal.config.TargetKind.NOTIFY, "_").counters().acceptedCount()).isEqualTo(3);
        }
    }
}
