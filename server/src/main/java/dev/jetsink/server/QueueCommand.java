package dev.jetsink.server;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code jetsink queue}: placeholder until the queue work lands. */
@Command(name = "queue", mixinStandardHelpOptions = true,
    description = "Inspect a target's local queue (read-only, safe while the daemon runs).")
final class QueueCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("queue inspection is not implemented yet");
        return Main.EXIT_FAILURE;
    }
}
