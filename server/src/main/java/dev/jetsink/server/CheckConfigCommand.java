package dev.jetsink.server;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code jetsink check-config}: placeholder until the configuration work lands. */
@Command(name = "check-config", mixinStandardHelpOptions = true,
    description = "Resolve and validate the configuration; print each target and every error.")
final class CheckConfigCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("check-config is not implemented yet");
        return Main.EXIT_FAILURE;
    }
}
