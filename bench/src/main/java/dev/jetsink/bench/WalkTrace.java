package dev.jetsink.bench;

import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.Bootstrap;
import com.sun.jdi.Method;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.MethodEntryRequest;
import com.sun.jdi.request.MethodExitRequest;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Counts the walk of one webhook body through jetsink's own code, from the first jetsink method the
 * HTTP request reaches to the call that hands the record to the queue's writer
 * ({@code SegmentedQueue.submit}): DESIGN.md "The way in".
 *
 * <p>A {@code jetsink serve} child (the given jar) runs under the JDK's debugger agent; after two
 * warm-up requests every entry and exit of a {@code dev.jetsink} method is recorded for one more
 * request. Only the thread that reaches {@code submit} is walked. A <em>file stay</em> begins each
 * time control moves to a different source file, by a call or by a return; stays begun by a return
 * are counted apart. Lambdas count as the file that wrote them.
 *
 * <p>Usage: {@code WalkTrace --jar server/target/jetsink.jar [--show yes]}.
 */
public final class WalkTrace {

    private static final String END_CLASS = "dev.jetsink.internal.queue.SegmentedQueue";
    private static final String END_METHOD = "submit";

    private record Step(boolean entry, String file, String pkg, String method, ThreadReference thread) {
    }

    private WalkTrace() {
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        if (!opts.containsKey("jar")) {
            throw new IllegalArgumentException("usage: WalkTrace --jar server/target/jetsink.jar [--show yes]");
        }
        byte[] body;
        try (InputStream in = WalkTrace.class.getResourceAsStream("minio-notify-put.json")) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
        }
        int debugPort;
        try (ServerSocket s = new ServerSocket(0)) {
            debugPort = s.getLocalPort();
        }
        Path work = Files.createTempDirectory("jetsink-walk");
        try (NatsServer server = NatsServer.builder().build().start();
             Connection admin = Nats.connect(server.url())) {
            Streams.create(admin, StreamSpec.of("WALK", "walk.events").duplicateWindow(Duration.ofSeconds(274)).build());
            try (DaemonProcess daemon = DaemonProcess.start(Path.of(opts.get("jar")), server.url(), "WALK", "walk.events",
                Files.createDirectories(work.resolve("queue")),
                List.of("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:" + debugPort))) {
                URI uri = URI.create("http://" + daemon.host() + ":" + daemon.port() + "/notify");
                post(uri, body);
                post(uri, body);
                VirtualMachine vm = attach(debugPort);
                List<Step> steps = record(vm, () -> post(uri, body));
                vm.dispose();
                List<Step> walker = walkerSteps(steps);
                report("every jetsink method", walk(walker), opts.containsKey("show"));
                report("leaving out leaf methods (those that call no jetsink method: accessors and the like)",
                    walk(withoutLeaves(walker)), opts.containsKey("show"));
            }
        }
    }

    private static void post(URI uri, byte[] body) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("POST answered " + r.statusCode() + ": " + r.body());
        }
    }

    private static VirtualMachine attach(int port) throws Exception {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
            .filter(c -> c.transport().name().equals("dt_socket")).findFirst().orElseThrow();
        Map<String, Connector.Argument> a = socket.defaultArguments();
        a.get("hostname").setValue("127.0.0.1");
        a.get("port").setValue(Integer.toString(port));
        return socket.attach(a);
    }

    private interface Action {
        void run() throws Exception;
    }

    /** Every entry and exit of a jetsink method, in the order the debuggee reported them. */
    private static List<Step> record(VirtualMachine vm, Action request) throws Exception {
        MethodEntryRequest entries = vm.eventRequestManager().createMethodEntryRequest();
        MethodExitRequest exits = vm.eventRequestManager().createMethodExitRequest();
        for (EventRequest r : List.of(entries, exits)) {
            if (r instanceof MethodEntryRequest e) {
                e.addClassFilter("dev.jetsink.*");
            } else {
                ((MethodExitRequest) r).addClassFilter("dev.jetsink.*");
            }
            r.setSuspendPolicy(EventRequest.SUSPEND_NONE);
            r.enable();
        }
        List<Step> steps = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try {
                while (true) {
                    EventSet set = vm.eventQueue().remove();
                    for (Event e : set) {
                        if (e instanceof MethodEntryEvent m) {
                            steps.add(step(true, m.method(), m.thread()));
                        } else if (e instanceof MethodExitEvent m) {
                            steps.add(step(false, m.method(), m.thread()));
                        } else if (e instanceof VMDisconnectEvent) {
                            return;
                        }
                    }
                }
            } catch (InterruptedException | com.sun.jdi.VMDisconnectedException stop) {
                // done
            }
        }, "walk-events");
        reader.start();
        request.run();
        TimeUnit.MILLISECONDS.sleep(500);
        entries.disable();
        exits.disable();
        TimeUnit.MILLISECONDS.sleep(500);
        synchronized (steps) {
            return List.copyOf(steps);
        }
    }

    private static Step step(boolean entry, Method m, ThreadReference thread) {
        String type = m.declaringType().name();
        String file;
        try {
            file = m.declaringType().sourceName();
        } catch (AbsentInformationException noSource) {
            String host = type.replaceAll("\\$\\$Lambda.*", "").replaceAll("\\$.*", "");
            file = host.substring(host.lastIndexOf('.') + 1) + ".java";
        }
        String pkg = type.substring(0, type.lastIndexOf('.'));
        return new Step(entry, file, pkg, type.substring(type.lastIndexOf('.') + 1) + "." + m.name(), thread);
    }

    private record Stay(String file, String pkg, boolean byReturn, String via) {
    }

    /** The steps of the thread that reached the queue's writer, up to that call. */
    private static List<Step> walkerSteps(List<Step> steps) {
        ThreadReference walker = steps.stream()
            .filter(s -> s.entry() && s.method().equals("SegmentedQueue." + END_METHOD))
            .map(Step::thread).findFirst()
            .orElseThrow(() -> new IllegalStateException("no call of " + END_CLASS + "." + END_METHOD + " recorded"));
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s.thread().equals(walker)) {
                out.add(s);
                if (s.entry() && s.method().equals("SegmentedQueue." + END_METHOD)) {
                    return out;
                }
            }
        }
        throw new IllegalStateException("the walk never reached " + END_METHOD);
    }

    /** The steps without calls that return before calling any other jetsink method. */
    private static List<Step> withoutLeaves(List<Step> steps) {
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            if (s.entry() && i + 1 < steps.size() && !steps.get(i + 1).entry()
                && steps.get(i + 1).method().equals(s.method())) {
                i++;
                continue;
            }
            out.add(s);
        }
        return out;
    }

    /** The file stays of a walk. */
    private static List<Stay> walk(List<Step> steps) {
        List<Stay> stays = new ArrayList<>();
        List<String> stack = new ArrayList<>();
        for (Step s : steps) {
            String current = stays.isEmpty() ? null : stays.get(stays.size() - 1).file();
            if (s.entry()) {
                stack.add(s.file() + "|" + s.pkg());
                if (!s.file().equals(current)) {
                    stays.add(new Stay(s.file(), s.pkg(), false, s.method()));
                }
                if (s.method().equals("SegmentedQueue." + END_METHOD)) {
                    return stays;
                }
            } else {
                if (!stack.isEmpty()) {
                    stack.remove(stack.size() - 1);
                }
                if (!stack.isEmpty()) {
                    String[] back = stack.get(stack.size() - 1).split("\\|");
                    if (!back[0].equals(current)) {
                        stays.add(new Stay(back[0], back[1], true, "return from " + s.method()));
                    }
                }
            }
        }
        throw new IllegalStateException("the walk never reached " + END_METHOD);
    }

    private static void report(String what, List<Stay> stays, boolean show) {
        Set<String> packages = new LinkedHashSet<>();
        Set<String> files = new LinkedHashSet<>();
        long returns = 0;
        for (Stay s : stays) {
            packages.add(s.pkg());
            files.add(s.file());
            if (s.byReturn()) {
                returns++;
            }
            if (show) {
                System.out.printf("%-28s %-36s %s%n", s.file(), s.pkg(), s.via());
            }
        }
        System.out.printf("walk to the queue write, %s: %d file stays (%d begun by a return) in %d files of %d packages%n",
            what, stays.size(), returns, files.size(), packages.size());
        System.out.println("packages: " + String.join(", ", packages));
    }
}
