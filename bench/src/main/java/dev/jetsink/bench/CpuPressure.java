package dev.jetsink.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/**
 * CPU pressure over a measured window, from the kernel's PSI counter ({@code /proc/pressure/cpu},
 * line {@code some}, field {@code total}: microseconds in which at least one runnable task waited
 * for a CPU). The share of the window's wall time spent so is printed beside every figure: on this
 * shared 2-core machine it says whether a number was measured on a starved host.
 */
record CpuPressure(long stalledMicros, long atNanos) {

    private static final Path PSI = Path.of("/proc/pressure/cpu");

    /** The counter now; {@code stalledMicros} is -1 where the kernel has no PSI. */
    static CpuPressure sample() {
        long total = -1;
        try {
            for (String line : Files.readAllLines(PSI)) {
                if (line.startsWith("some ")) {
                    for (String field : line.split(" ")) {
                        if (field.startsWith("total=")) {
                            total = Long.parseLong(field.substring("total=".length()));
                        }
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            total = -1;
        }
        return new CpuPressure(total, System.nanoTime());
    }

    /** Percent of the time since {@code start} in which some task waited for a CPU. */
    OptionalDouble percentSince(CpuPressure start) {
        long wallMicros = (atNanos - start.atNanos) / 1000;
        if (stalledMicros < 0 || start.stalledMicros < 0 || wallMicros <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(Math.round(1000.0 * (stalledMicros - start.stalledMicros) / wallMicros) / 10.0);
    }

    /** Percent since {@code start}, as text for a report line. */
    String textSince(CpuPressure start) {
        OptionalDouble p = percentSince(start);
        return p.isPresent() ? String.format("cpu pressure %.1f %%", p.getAsDouble()) : "cpu pressure n/a";
    }
}
