package dev.jetsink.server.ingest;

import dev.jetsink.server.http.HttpJson;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Webhooks are POSTs: anything else gets 405 with {@code Allow: POST}. */
final class PostOnly extends Handler.Wrapper {

    PostOnly(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!"POST".equals(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            HttpJson.error(response, callback, 405, "use POST");
            return true;
        }
        return super.handle(request, response, callback);
    }
}
