package dev.jetsink.server.http;

import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The daemon's routes: {@code /} exactly, then path prefixes ({@code /notify} serves
 * {@code /notify} and everything under {@code /notify/}); anything else is a JSON 404 that quotes
 * at most {@link HttpJson#MAX_QUOTED} characters of the path.
 */
public final class Routes extends Handler.Abstract {

    private final Handler root;
    private final Map<String, Handler> prefixes;

    public Routes(Handler root, Map<String, Handler> prefixes) {
        this.root = root;
        this.prefixes = new LinkedHashMap<>(prefixes);
    }

    // The route handlers are plain functions of the request; they share this one's server.
    @Override
    public void setServer(org.eclipse.jetty.server.Server server) {
        super.setServer(server);
        root.setServer(server);
        prefixes.values().forEach(h -> h.setServer(server));
    }

    /**
     * The route {@code path} falls in, as a metric label: the matched prefix without its leading
     * slash ({@code notify} for {@code /notify/primary}), {@code root} for {@code /},
     * {@code unmatched} for a 404. Never the raw path, so senders cannot mint label values.
     */
    String routeOf(String path) {
        if (path.equals("/")) {
            return "root";
        }
        for (String prefix : prefixes.keySet()) {
            if (path.equals(prefix) || path.startsWith(prefix + "/")) {
                return prefix.substring(1);
            }
        }
        return "unmatched";
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        if (path.equals("/")) {
            return root.handle(request, response, callback);
        }
        for (Map.Entry<String, Handler> e : prefixes.entrySet()) {
            String prefix = e.getKey();
            if (path.equals(prefix) || path.startsWith(prefix + "/")) {
                return e.getValue().handle(request, response, callback);
            }
        }
        HttpJson.error(response, callback, 404, "not found: " + HttpJson.quote(path));
        return true;
    }
}
