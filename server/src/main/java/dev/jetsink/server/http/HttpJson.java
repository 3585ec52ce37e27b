package dev.jetsink.server.http;

import dev.jetsink.internal.event.Json;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/** Small HTTP plumbing shared by the handlers: JSON answers, and what of a client's text they may quote. */
public final class HttpJson {

    /** Error bodies quote at most this many characters of anything the client sent. */
    public static final int MAX_QUOTED = 200;
    private static final String BODY_READ = "jetsink.bodyRead";

    private HttpJson() {
    }

    /** Sends {@code body} as JSON with {@code status}. */
    public static void send(Response response, Callback callback, int status, Object body) {
        try {
            send(response, callback, status, Json.WRITER.writeValueAsBytes(body), "application/json");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends {@code {"error": message}} with {@code status}, and {@code Retry-After} when given. */
    public static void error(Response response, Callback callback, int status, String message, Optional<Duration> retryAfter) {
        retryAfter.ifPresent(d -> response.getHeaders().put(HttpHeader.RETRY_AFTER, Math.max(1, d.toSeconds())));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        send(response, callback, status, body);
    }

    public static void error(Response response, Callback callback, int status, String message) {
        error(response, callback, status, message, Optional.empty());
    }

    /** Like {@link #error}, and the connection closes after the answer. */
    public static void errorAndClose(Response response, Callback callback, int status, String message,
                              Optional<Duration> retryAfter) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        error(response, callback, status, message, retryAfter);
    }

    /**
     * True for a request of {@code method} (or {@code HEAD} where {@code method} is {@code GET});
     * otherwise answers 405 with {@code Allow} and returns false.
     */
    public static boolean allowOnly(Request request, Response response, Callback callback, String method) {
        String m = request.getMethod();
        if (method.equals(m) || (method.equals("GET") && m.equals("HEAD"))) {
            return true;
        }
        response.getHeaders().put(HttpHeader.ALLOW, method.equals("GET") ? "GET, HEAD" : method);
        error(response, callback, 405, "use " + method);
        return false;
    }

    /**
     * Sends {@code bytes} with a Content-Length; a HEAD request gets the headers only. An answer
     * given before the request's body was read says {@code Connection: close}: Jetty closes such a
     * connection afterwards, and a keep-alive client must not send its next request into it.
     */
    public static void send(Response response, Callback callback, int status, byte[] bytes, String contentType) {
        Request request = response.getRequest();
        if (hasBody(request) && request.getAttribute(BODY_READ) == null) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        boolean head = HttpMethod.HEAD.is(request.getMethod());
        response.write(true, head ? BufferUtil.EMPTY_BUFFER : ByteBuffer.wrap(bytes), callback);
    }

    /** Whether the request carries a body (a positive Content-Length, or chunks). */
    public static boolean hasBody(Request request) {
        return request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    }

    /** Marks the request's body as read to its end ({@link BodyReader}). */
    public static void bodyRead(Request request) {
        request.setAttribute(BODY_READ, Boolean.TRUE);
    }

    /** {@code text} cut to {@link #MAX_QUOTED} characters, marked when cut. */
    public static String quote(String text) {
        return text.length() <= MAX_QUOTED ? text : text.substring(0, MAX_QUOTED) + "...";
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
