package dev.jetsink.server.cli;

import dev.jetsink.server.ExitCode;
import dev.jetsink.server.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code jetsink} command line: one entry point for the daemon and the operator tools.
 * Exit codes: {@link ExitCode}.
 */
@Command(
    name = "jetsink",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Delivers object-storage events (S3 notifications, audit entries) to NATS without losing them.",
    subcommands = {
        ServeCommand.class,
        DemoCommand.class,
        CheckConfigCommand.class,
        QueueCommand.class,
        StreamPlanCommand.class,
        StreamTailCommand.class,
        FailedCommand.class,
        StatusCommand.class,
        ConfigTemplateCommand.class,
        CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (tests call this instead of {@link #main}). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExitCodeExceptionMapper(e -> ExitCode.FAILURE);
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println(ex.getMessage());
            ex.getCommandLine().usage(ex.getCommandLine().getErr());
            return ExitCode.USAGE;
        });
        return cli.execute(args);
    }

    /**
     * {@code jetsink --version}: the version and git commit the jar's manifest records (written by
     * the build), or "development build" when running from classes.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Package p = Main.class.getPackage();
            String version = p == null ? null : p.getImplementationVersion();
            String commit = manifestCommit();
            return new String[] {"jetsink " + (version == null ? "(development build)" : version)
                + (commit == null ? "" : " (commit " + commit + ")")};
        }

        private static String manifestCommit() {
            try (var in = Main.class.getResourceAsStream("/META-INF/MANIFEST.MF")) {
                if (in == null) {
                    return null;
                }
                return new java.util.jar.Manifest(in).getMainAttributes().getValue("Jetsink-Commit");
            } catch (java.io.IOException e) {
                return null;
            }
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }
}
