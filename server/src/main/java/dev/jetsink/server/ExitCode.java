package dev.jetsink.server;

/**
 * The exit codes of every {@code jetsink} command: 0 ok, 1 a runtime failure, 2 an invalid
 * configuration or usage. The packaged unit does not restart on 2 ({@code RestartPreventExitStatus}).
 */
public final class ExitCode {
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int USAGE = 2;

    private ExitCode() {
    }
}
