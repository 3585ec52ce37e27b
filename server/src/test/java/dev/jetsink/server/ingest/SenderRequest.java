package dev.jetsink.server.ingest;

import dev.jetsink.server.testing.RawHttp;
import dev.jetsink.testkit.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static org.assertj.core.api.Assertions.fail;

/**
 * One raw sender request from {@code src/test/resources/senders/} (a CRLF header block, then the
 * body bytes exactly as the store sent them), with the few rewrites a replay needs. Header lines
 * stay byte-for-byte unless a method here changes them.
 *
 * @param requestLine e.g. {@code POST /notify HTTP/1.1}
 * @param headers the header lines, without CRLF, in wire order
 * @param body the body bytes
 */
record SenderRequest(String requestLine, List<String> headers, byte[] body) {

    private static final byte[] CRLF = {'\r', '\n'};
    /** libcurl waits this long for {@code 100 Continue} before it sends the body anyway. */
    private static final Duration CONTINUE_WAIT = Duration.ofSeconds(1);

    SenderRequest {
        headers = List.copyOf(headers);
    }

    /** The fixture {@code senders/<name>} from the test classpath. */
    static SenderRequest load(String name) {
        byte[] raw;
        try (InputStream in = SenderRequest.class.getResourceAsStream("/senders/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture senders/" + name);
            }
            raw = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int end = Bytes.indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        if (end < 0) {
            throw new IllegalArgumentException("senders/" + name + " has no CRLF CRLF after its headers");
        }
        List<String> lines = List.of(new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n"));
        return new SenderRequest(lines.get(0), lines.subList(1, lines.size()),
            Arrays.copyOfRange(raw, end + 4, raw.length));
    }

    String method() {
        return requestLine.substring(0, requestLine.indexOf(' '));
    }

    /** The request line with its target replaced by {@code path}. */
    SenderRequest toPath(String path) {
        String[] parts = requestLine.split(" ");
        return new SenderRequest(parts[0] + " " + path + " " + parts[2], headers, body);
    }

    /** The {@code Host} header's value replaced (its name's case kept). */
    SenderRequest toHost(String hostPort) {
        return new SenderRequest(requestLine, headers.stream()
            .map(h -> isHeader(h, "Host") ? h.substring(0, h.indexOf(':')) + ": " + hostPort : h).toList(), body);
    }

    /** A header line added right after {@code Host}, where curl writes credentials from the URL. */
    SenderRequest withHeaderAfterHost(String line) {
        List<String> out = new ArrayList<>();
        for (String h : headers) {
            out.add(h);
            if (isHeader(h, "Host")) {
                out.add(line);
            }
        }
        return new SenderRequest(requestLine, out, body);
    }

    /** Every header called {@code name} replaced by {@code line}. */
    SenderRequest replacingHeader(String name, String line) {
        return new SenderRequest(requestLine, headers.stream().map(h -> isHeader(h, name) ? line : h).toList(), body);
    }

    /** Every header called {@code name} removed. */
    SenderRequest withoutHeader(String name) {
        return new SenderRequest(requestLine, headers.stream().filter(h -> !isHeader(h, name)).toList(), body);
    }

    /** The body replaced by {@code newBody}, and {@code Content-Length} (its name's case kept) with it. */
    SenderRequest withBody(byte[] newBody) {
        return new SenderRequest(requestLine, headers.stream()
            .map(h -> isHeader(h, "Content-Length") ? h.substring(0, h.indexOf(':')) + ": " + newBody.length : h)
            .toList(), newBody.clone());
    }

    Optional<String> header(String name) {
        return headers.stream().filter(h -> isHeader(h, name)).map(h -> h.substring(h.indexOf(':') + 1).trim()).findFirst();
    }

    boolean expectsContinue() {
        return header("Expect").map(v -> v.equalsIgnoreCase("100-continue")).orElse(false);
    }

    /** The request line and headers, terminated by the empty line. */
    byte[] head() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(requestLine.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(CRLF);
        for (String h : headers) {
            out.writeBytes(h.getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(CRLF);
        }
        out.writeBytes(CRLF);
        return out.toByteArray();
    }

    /**
     * Writes this request to the daemon on {@code port} as its sender would: the Host rewritten to
     * the daemon; with {@code Expect: 100-continue}, the body only after the interim
     * {@code 100 Continue} (which must come within a second, as libcurl waits), unless a final
     * answer comes first.
     */
    RawHttp.Response replayTo(int port) throws IOException {
        SenderRequest sent = toHost("127.0.0.1:" + port);
        boolean head = sent.method().equals("HEAD");
        try (RawHttp c = RawHttp.connect(port, Duration.ofSeconds(30))) {
            if (!sent.expectsContinue()) {
                c.write(sent.head()).write(sent.body());
                return c.readResponse(head);
            }
            c.write(sent.head());
            c.setReadTimeout(CONTINUE_WAIT);
            RawHttp.Response interim;
            try {
                interim = c.readHead();
            } catch (SocketTimeoutException e) {
                return fail("no interim 100 Continue within " + CONTINUE_WAIT + " of the headers (libcurl would stall)");
            }
            c.setReadTimeout(Duration.ofSeconds(30));
            if (interim.status() != 100) {
                return c.withBody(interim, head);
            }
            c.write(sent.body());
            return c.readResponse(head);
        }
    }

    /** Basic credentials as curl derives them from {@code user:password@} in an endpoint URL. */
    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static boolean isHeader(String line, String name) {
        int colon = line.indexOf(':');
        return colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT));
    }
}
