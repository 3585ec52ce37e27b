package dev.jetsink.server.cli;

import dev.jetsink.server.ExitCode;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class MainTest {
    @Test
    void helpExitsZero() {
        assertThat(Main.run("--help")).isZero();
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertThat(Main.run("no-such-command")).isEqualTo(ExitCode.USAGE);
    }
}
