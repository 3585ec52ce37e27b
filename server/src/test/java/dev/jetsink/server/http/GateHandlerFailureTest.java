package dev.jetsink.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.internal.config.HttpSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request leaves the intake gate however its handler fails (DESIGN.md "Daemon"): otherwise it
 * stays counted inside and shutdown waits out the whole grace.
 */
class GateHandlerFailureTest {

    private static final Duration GRACE = Duration.ofSeconds(5);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private HttpFront front;

    @AfterEach
    void stop() {
        if (front != null) {
            front.stop();
        }
    }

    @Test
    void handlerThrowingAnErrorLeavesTheGateAndShutdownDoesNotWaitOutTheGrace() throws Exception {
        serve(failing(() -> {
            throw new AssertionError("handler broke");
        }));
        assertAnswered500AndGateEmpty();
    }

    @Test
    void handlerSneakingACheckedExceptionLeavesTheGateAndShutdownDoesNotWaitOutTheGrace() throws Exception {
        serve(failing(() -> sneak(new IOException("checked, undeclared"))));
        assertAnswered500AndGateEmpty();
    }

    private void assertAnswered500AndGateEmpty() throws Exception {
        HttpResponse<String> answer = client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.address().getPort() + "/x")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(500);
        // The client can read the 500 before the server's write callback has run, so the request
        // may still be inside for a moment; what must not happen is shutdown waiting out the grace.
        long began = System.nanoTime();
        assertThat(front.closeIntake(GRACE)).as("drained").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(GRACE.dividedBy(5));
        assertThat(front.gate().inside()).as("requests counted inside the gate").isZero();
    }

    private void serve(Handler routes) throws IOException {
        front = HttpFront.bind("127.0.0.1:0", HttpSettings.defaults());
        front.serve(routes);
    }

    private static Handler failing(Runnable failure) {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                failure.run();
                return true;
            }
        };
    }

    /** Throws {@code e} from code that declares no checked exception, as a misbehaving library can. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneak(Throwable e) throws E {
        throw (E) e;
    }
}
