package dev.jetsink.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Small HTTP plumbing shared by the handlers: JSON answers and bounded body reads. */
final class HttpJson {

    static final ObjectMapper JSON = new ObjectMapper();

    private HttpJson() {
    }

    /** Sends {@code body} as JSON with {@code status}. */
    static void send(HttpExchange ex, int status, Object body) throws IOException {
        send(ex, status, JSON.writeValueAsBytes(body), "application/json");
    }

    /** Sends {@code {"error": message}} with {@code status}, and {@code Retry-After} when given. */
    static void error(HttpExchange ex, int status, String message, Optional<Duration> retryAfter) throws IOException {
        retryAfter.ifPresent(d -> ex.getResponseHeaders().set("Retry-After", Long.toString(Math.max(1, d.toSeconds()))));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        send(ex, status, body);
    }

    static void error(HttpExchange ex, int status, String message) throws IOException {
        error(ex, status, message, Optional.empty());
    }

    /** True for a request of {@code method}; otherwise answers 405 with {@code Allow} and returns false. */
    static boolean allowOnly(HttpExchange ex, String method) throws IOException {
        if (method.equals(ex.getRequestMethod())) {
            return true;
        }
        ex.getResponseHeaders().set("Allow", method);
        error(ex, 405, "use " + method);
        return false;
    }

    static void send(HttpExchange ex, int status, byte[] bytes, String contentType) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
        ex.close();
    }

    /** Bytes of an oversized body read and thrown away so the answer reaches the client intact. */
    private static final long DISCARD_LIMIT = 64L * 1024 * 1024;

    /**
     * Reads the request body, keeping at most {@code max} bytes; empty when the body is longer.
     * The excess is read and discarded (up to 64 MiB) rather than left unread: closing a socket
     * with unread input resets it, and the client would lose the 413.
     */
    static Optional<byte[]> readAtMost(HttpExchange ex, int max) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long total = consume(ex, max, buf);
        return total > max ? Optional.empty() : Optional.of(buf.toByteArray());
    }

    /**
     * Reads the request body and throws it away (up to {@code max} plus 64 MiB), holding no more
     * than one chunk: an answer sent over unread input could be lost to a reset.
     */
    static void discard(HttpExchange ex, int max) throws IOException {
        consume(ex, max, null);
    }

    /** Reads the body to its end (or 64 MiB past {@code max}), keeping up to {@code max} bytes in {@code keep}. */
    private static long consume(HttpExchange ex, int max, ByteArrayOutputStream keep) throws IOException {
        byte[] chunk = new byte[16 * 1024];
        long total = 0;
        try (InputStream in = ex.getRequestBody()) {
            int n;
            while ((n = in.read(chunk)) >= 0) {
                total += n;
                if (keep != null && total <= max) {
                    keep.write(chunk, 0, n);
                } else if (total > max + DISCARD_LIMIT) {
                    ex.getResponseHeaders().set("Connection", "close");
                    break;
                }
            }
        }
        return total;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
