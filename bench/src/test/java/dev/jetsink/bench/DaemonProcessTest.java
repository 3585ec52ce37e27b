package dev.jetsink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The extra JVM options an A/B passes to every daemon a bench starts. */
class DaemonProcessTest {

    @Test
    void extraOptionsAreSplitAtWhiteSpace() {
        assertThat(DaemonProcess.extraOptions("  -XX:+UseParallelGC\t-Xlog:gc  -Dx=1 "))
            .containsExactly("-XX:+UseParallelGC", "-Xlog:gc", "-Dx=1");
    }

    @Test
    void noneWhenUnsetOrBlank() {
        assertThat(DaemonProcess.extraOptions(null)).isEmpty();
        assertThat(DaemonProcess.extraOptions(" \t")).isEmpty();
    }
}
