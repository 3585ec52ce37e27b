package dev.jetsink.server.ingest;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.http.HttpJson;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code /notify}, {@code /notify/{id}} (and the same under {@code /audit}): 404 for any other
 * path under the kind's prefix; otherwise the addressed target id, if any, is left on the request
 * for the handlers after this one ({@link #target}).
 */
final class TargetRoute extends Handler.Wrapper {

    private static final String TARGET = TargetRoute.class.getName() + ".target";

    private final TargetKind kind;

    TargetRoute(TargetKind kind, Handler next) {
        super(next);
        this.kind = kind;
    }

    /** The target id the path named (lower case), or empty for all targets of the kind. */
    @SuppressWarnings("unchecked")
    static Optional<String> target(Request request) {
        return (Optional<String>) request.getAttribute(TARGET);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Optional<Addressed> addressed = addressedBy(Request.getPathInContext(request));
        if (addressed.isEmpty()) {
            HttpJson.error(response, callback, 404, "not found");
            return true;
        }
        request.setAttribute(TARGET, addressed.get().id());
        return super.handle(request, response, callback);
    }

    /** What a path this route serves addresses: one target by id, or (no id) all of the kind. */
    private record Addressed(Optional<String> id) {
        static final Addressed ALL = new Addressed(Optional.empty());
    }

    /** Empty for a path this route does not serve. */
    private Optional<Addressed> addressedBy(String path) {
        String base = "/" + kind.label();
        if (path.equals(base) || path.equals(base + "/")) {
            return Optional.of(Addressed.ALL);
        }
        if (path.startsWith(base + "/")) {
            String id = path.substring(base.length() + 1);
            if (id.endsWith("/")) {
                id = id.substring(0, id.length() - 1);
            }
            if (!id.isEmpty() && !id.contains("/")) {
                return Optional.of(new Addressed(Optional.of(id.toLowerCase(Locale.ROOT))));
            }
        }
        return Optional.empty();
    }
}
