package dev.jetsink.server.http;

import dev.jetsink.internal.event.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a malformed request line or chunk, headers over the limit, a body longer
 * than declared) answered like every other jetsink error: {@code {"error": "..."}}, quoting at most
 * {@link HttpJson#MAX_QUOTED} characters, never a stack or an HTML page. Jetty 12.1 sends them all
 * through {@link #generateResponse}; it no longer calls the deprecated {@code badMessageError}.
 */
public final class JsonErrorHandler extends ErrorHandler {

    JsonErrorHandler() {
        setShowStacks(false);
        setShowCauses(false);
        setShowMessageInTitle(false);
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        HttpJson.send(response, callback, code, HttpJson.utf8(json(code, message)), "application/json");
    }

    private static String json(int code, String message) {
        String text = message == null || message.isBlank() ? HttpStatus.getMessage(code) : message;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", HttpJson.quote(text));
        try {
            return Json.WRITER.writeValueAsString(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "{\"error\":\"" + code + "\"}";
        }
    }
}
