package dev.jetsink.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The scheduler state of every thread of a process, from {@code /proc/<pid>/task/<tid>/stat}
 * (Linux).
 *
 * <p>{@code kill -STOP} returns once the signal is queued, not once the process has stopped: for a
 * moment some of its threads still run (a recovery test that paused the server once found one of
 * its 2 000 entries acknowledged). {@link NatsServer#pause()} therefore waits until every
 * thread reports itself stopped, and {@link NatsServer#resume()} until none does.
 *
 * <p>The stat line is {@code pid (comm) state ...}; {@code comm} is the thread's name and may hold
 * spaces and parentheses, so the state is the first field after the <em>last</em> {@code ')'}.
 */
final class TaskStates {

    private static final Duration POLL = Duration.ofMillis(2);

    private TaskStates() {
    }

    /**
     * The state letter of each thread (R running, S sleeping, D disk wait, T stopped, t traced,
     * Z zombie, ...). A thread that ends while being read is left out.
     *
     * @throws IllegalStateException if the process has no {@code /proc} entry
     */
    static List<Character> of(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        List<Character> states = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) dirs::iterator) {
                read(task.resolve("stat")).ifPresent(states::add);
            }
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("process " + pid + " has no " + tasks, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + tasks, e);
        }
        return states;
    }

    /** Whether every thread is stopped by a signal (T) or in a traced stop (t); ending threads count as stopped. */
    static boolean allStopped(List<Character> states) {
        return states.stream().allMatch(s -> s == 'T' || s == 't' || s == 'Z' || s == 'X');
    }

    /** Whether no thread is stopped any more. */
    static boolean noneStopped(List<Character> states) {
        return states.stream().noneMatch(s -> s == 'T' || s == 't');
    }

    /** The state field of one stat line. */
    static char stateOf(String statLine) {
        int end = statLine.lastIndexOf(')');
        if (end < 0 || end + 2 >= statLine.length()) {
            throw new IllegalArgumentException("not a /proc stat line: " + statLine);
        }
        return statLine.charAt(end + 2);
    }

    /**
     * Polls until {@code wanted} holds for the thread states of {@code pid}.
     *
     * @throws IllegalStateException naming {@code what} and the last states seen, once {@code timeout} has passed
     */
    static void await(long pid, Predicate<List<Character>> wanted, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Character> states = of(pid);
        while (!wanted.test(states)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("process " + pid + ": threads not " + what + " within "
                        + timeout.toMillis() + " ms; thread states " + states);
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for process " + pid + " to be " + what, e);
            }
            states = of(pid);
        }
    }

    private static Optional<Character> read(Path stat) throws IOException {
        try {
            return Optional.of(stateOf(Files.readString(stat)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            // reading the stat of a thread that has just exited fails with ESRCH
            if (!Files.exists(stat)) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
