package dev.jetsink.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP/1.1 over a plain socket, byte for byte: what a webhook sender writes, and what the daemon
 * answers read back without a client library smoothing anything over. A connection that ends
 * (closed or reset) before a status line is an {@link AssertionError}: every refusal must be
 * an answer.
 */
public final class RawHttp implements AutoCloseable {

    /** A response head and body; header names lower-cased, the first value of each kept. */
    public record Response(String statusLine, int status, Map<String, String> headers, byte[] body) {

        public Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new java.io.BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** A connection to {@code 127.0.0.1:port}; reads give up after {@code readTimeout}. */
    public static RawHttp connect(int port, Duration readTimeout) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout((int) readTimeout.toMillis());
        return new RawHttp(s);
    }

    /** One request on a fresh connection, its answer read (no body for {@code HEAD}). */
    public static Response exchange(int port, byte[] request) throws IOException {
        try (RawHttp c = connect(port, Duration.ofSeconds(10))) {
            c.write(request);
            return c.readResponse(startsWith(request, "HEAD "));
        }
    }

    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    public RawHttp write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    public void setReadTimeout(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
    }

    /**
     * The next response head (status line and headers, interim 1xx ones included), body unread.
     *
     * @throws AssertionError when the connection ends before a complete status line
     */
    public Response readHead() throws IOException {
        String statusLine;
        try {
            statusLine = line();
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            throw new AssertionError("connection failed before a status line: " + e, e);
        }
        if (statusLine == null) {
            throw new AssertionError("connection closed before a status line");
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new AssertionError("not an HTTP status line: " + abbreviate(statusLine));
        }
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(); h != null && !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
        }
        return new Response(statusLine, status, headers, new byte[0]);
    }

    /** The next final response (interim 1xx skipped) with its body; none for {@code HEAD}. */
    public Response readResponse(boolean head) throws IOException {
        Response r = readHead();
        while (r.status() >= 100 && r.status() < 200) {
            r = readHead();
        }
        return withBody(r, head);
    }

    /** Reads the body {@code r}'s headers announce: by length, chunked, or (close) up to the end. */
    public Response withBody(Response r, boolean head) throws IOException {
        if (head || r.status() == 204 || r.status() == 304) {
            return r;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        Optional<String> length = r.header("Content-Length");
        if (length.isPresent()) {
            body.write(in.readNBytes(Integer.parseInt(length.get())));
        } else if (r.header("Transfer-Encoding").map(v -> v.toLowerCase(Locale.ROOT).contains("chunked")).orElse(false)) {
            for (int size = chunkSize(line()); size > 0; size = chunkSize(line())) {
                body.write(in.readNBytes(size));
                line();
            }
            for (String t = line(); t != null && !t.isEmpty(); t = line()) {
                // trailers
            }
        } else {
            body.write(in.readAllBytes());
        }
        return new Response(r.statusLine(), r.status(), r.headers(), body.toByteArray());
    }

    /**
     * Whether the peer has closed the connection: a read returns end of stream or fails (reset).
     * Bytes that arrive first (an answer before the close) are read and dropped.
     */
    public boolean closedByPeer() {
        try {
            byte[] buf = new byte[4096];
            while (true) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Everything up to the end of the stream (bounded by the read timeout). */
    byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    private static int chunkSize(String line) {
        if (line == null) {
            return 0;
        }
        int semi = line.indexOf(';');
        return Integer.parseInt((semi < 0 ? line : line.substring(0, semi)).trim(), 16);
    }

    /** One CRLF- (or LF-) terminated line without its terminator; null at end of stream. */
    private String line() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = buf.toByteArray();
                int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
            }
            buf.write(b);
        }
        return buf.size() == 0 ? null : buf.toString(StandardCharsets.ISO_8859_1);
    }

    private static boolean startsWith(byte[] bytes, String prefix) {
        return new String(bytes, 0, Math.min(bytes.length, prefix.length()), StandardCharsets.ISO_8859_1).equals(prefix);
    }

    public static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…(" + s.length() + " chars)" : s;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
