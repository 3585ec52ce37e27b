package dev.jetsink.server.http;

import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code GET /live} (and {@code HEAD}): 200 whenever the process answers HTTP at all. */
public final class LivenessHandler extends Handler.Abstract {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (HttpJson.allowOnly(request, response, callback, "GET")) {
            HttpJson.send(response, callback, 200, Map.of("status", "live"));
        }
        return true;
    }
}
