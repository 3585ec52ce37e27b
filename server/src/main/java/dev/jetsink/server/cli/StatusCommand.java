package dev.jetsink.server.cli;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.http.StatusTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink status [--watch] [--url URL] [--cacert FILE] [--cert FILE --key FILE]}:
 * the running daemon's {@code GET /status}
 * as a table that fits 80 columns — per target its state and since when, queue length and oldest
 * entry's age, events in and out per second over 10 s, failed-store length, and the last error on
 * a line of its own. {@code --watch} redraws it in place.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "What each target of the running daemon is doing (GET /status), as a table.")
public final class StatusCommand implements Callable<Integer> {


    @Mixin
    DaemonEndpoint daemon = new DaemonEndpoint();
    @Option(names = "--config", paramLabel = "FILE", description = "config file of NAME=value lines; the environment overrides it")
    Optional<Path> configFile = Optional.empty();
    @Option(names = "--watch", description = "redraw the table every --interval seconds until interrupted")
    boolean watch;
    @Option(names = "--interval", paramLabel = "SECS", defaultValue = "2", description = "seconds between redraws (default 2)")
    int interval;
    @Option(names = "--json", description = "print the daemon's JSON instead of the table")
    boolean json;

    @Spec
    CommandSpec spec;

    private final Map<String, String> env;

    public StatusCommand() {
        this(System.getenv());
    }

    StatusCommand(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String base = daemon.base(() -> ConfigLoader.load(env, configFile).config());
        HttpClient http;
        try {
            http = daemon.client();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return ExitCode.USAGE;
        }
        try {
            do {
                JsonNode status = fetch(http, base);
                if (watch) {
                    out.print("\033[H\033[2J");
                    out.println("jetsink status at " + base + " (every " + interval + " s; Ctrl-C to stop)");
                }
                out.print(json ? Json.PRETTY.writeValueAsString(status) + "\n" : StatusTable.render(status));
                out.flush();
                if (watch) {
                    Thread.sleep(Duration.ofSeconds(Math.max(1, interval)).toMillis());
                }
            } while (watch);
            return ExitCode.OK;
        } catch (IOException e) {
            err.println("cannot read " + base + "/status: " + e.getMessage());
            return ExitCode.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.OK;
        }
    }

    private static JsonNode fetch(HttpClient http, String base) throws IOException, InterruptedException {
        HttpResponse<String> r;
        try {
            r = http.send(HttpRequest.newBuilder(URI.create(base + "/status")).timeout(Duration.ofSeconds(10)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("no answer (" + DaemonEndpoint.why(e) + "); is jetsink running there?", e);
        }
        if (r.statusCode() != 200) {
            throw new IOException("answered " + r.statusCode());
        }
        return Json.READER.readTree(r.body());
    }
}
