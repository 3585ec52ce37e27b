package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void helpExitsZero() {
        assertThat(Main.run("--help")).isZero();
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertThat(Main.run("no-such-command")).isEqualTo(Main.EXIT_USAGE);
    }
}
