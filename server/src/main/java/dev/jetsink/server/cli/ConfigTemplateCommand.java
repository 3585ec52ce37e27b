package dev.jetsink.server.cli;

import dev.jetsink.internal.config.ConfigTemplate;
import dev.jetsink.server.ExitCode;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink config-template [--state-dir DIR]}: prints every setting, commented, with its
 * default; with {@code --state-dir} the state settings are set under DIR, as the packages ship
 * {@code jetsink.env}.
 */
@Command(name = "config-template", mixinStandardHelpOptions = true,
    description = "Print an environment file listing every setting, commented out, with its default and meaning.")
public final class ConfigTemplateCommand implements Callable<Integer> {
    @Option(names = "--state-dir", paramLabel = "DIR",
        description = "set JETSINK_DATA_DIR and the queue directories under DIR, as the packages do (/var/lib/jetsink)")
    Optional<Path> stateDir = Optional.empty();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (stateDir.isPresent() && !stateDir.get().isAbsolute()) {
            spec.commandLine().getErr().println("--state-dir must be an absolute path");
            return ExitCode.USAGE;
        }
        spec.commandLine().getOut().print(stateDir.map(ConfigTemplate::renderForStateDirectory).orElseGet(ConfigTemplate::render));
        spec.commandLine().getOut().flush();
        return ExitCode.OK;
    }
}
