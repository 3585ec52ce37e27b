package dev.jetsink.testkit;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Sends POSIX signals Java cannot send itself (STOP, CONT) through {@code kill}. */
final class Signals {

    private Signals() {
    }

    static void send(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                String out = new String(kill.getInputStream().readAllBytes());
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + signal, e);
        }
    }

    static void sendQuietly(String signal, long pid) {
        try {
            send(signal, pid);
        } catch (IllegalStateException e) {
            // Best effort: the process may have exited between the check and the signal.
        }
    }
}
