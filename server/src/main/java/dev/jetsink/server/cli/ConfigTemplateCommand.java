package dev.jetsink.server.cli;

import dev.jetsink.internal.config.ConfigTemplate;
import dev.jetsink.server.Main;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code jetsink config-template}: prints every setting, commented, as the packages ship it in {@code jetsink.env}. */
@Command(name = "config-template", mixinStandardHelpOptions = true,
    description = "Print an environment file listing every setting, commented out, with its default and meaning.")
public final class ConfigTemplateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(ConfigTemplate.render());
        spec.commandLine().getOut().flush();
        return Main.EXIT_OK;
    }
}
