package dev.jetsink.server.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A {@code POST /notify} sent on a socket up to half its body: the request stays inside the
 * daemon's gate until {@link #finish()} sends the rest, which is how a test holds a shutdown open.
 */
public final class HalfSentPost {
    private final byte[] body;
    private final OutputStream out;

    private HalfSentPost(byte[] body, OutputStream out) {
        this.body = body;
        this.out = out;
    }

    /** Sends the head and the first half of {@code json} on {@code socket} (reads time out after 30 s). */
    public static HalfSentPost start(Socket socket, String json) throws IOException {
        socket.setSoTimeout(30_000);
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body, 0, body.length / 2);
        out.flush();
        return new HalfSentPost(body, out);
    }

    /** Sends the rest of the body. */
    public void finish() throws IOException {
        out.write(body, body.length / 2, body.length - body.length / 2);
        out.flush();
    }
}
