package dev.jetsink.server.testing;

import dev.jetsink.server.ExitCode;
import dev.jetsink.server.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * Runs the CLI in-process with the exit-code rules of {@link Main#run}, capturing standard output
 * and error.
 */
public final class CliRun {
    public final int exitCode;
    public final String out;
    public final String err;

    private CliRun(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExitCodeExceptionMapper(e -> ExitCode.FAILURE);
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println(ex.getMessage());
            return ExitCode.USAGE;
        });
        int code = cli.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
