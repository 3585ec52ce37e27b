package dev.jetsink.server.ingest;

import dev.jetsink.server.http.BearerToken;
import dev.jetsink.server.http.HttpJson;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code JETSINK_INGEST_TOKEN}: 401 unless the request carries the token in one of the forms real
 * senders use ({@link BearerToken#acceptsAnySenderForm}).
 */
final class SenderToken extends Handler.Wrapper {

    private final BearerToken token;

    SenderToken(BearerToken token, Handler next) {
        super(next);
        this.token = token;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!token.acceptsAnySenderForm(Optional.ofNullable(request.getHeaders().get(HttpHeader.AUTHORIZATION)))) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
            HttpJson.error(response, callback, 401, "missing or wrong token");
            return true;
        }
        return super.handle(request, response, callback);
    }
}
