package dev.jetsink;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** W3C trace context as jetsink accepts it. */
class TraceContextTest {
    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidHeaderPairIsKept() {
        assertThat(TraceContext.parse(" " + VALID + " ", "congo=t61rcWkgMzE"))
            .contains(new TraceContext(VALID, Optional.of("congo=t61rcWkgMzE")));
        assertThat(TraceContext.parse(VALID, null)).contains(new TraceContext(VALID, Optional.empty()));
        assertThat(TraceContext.parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future", null))
            .as("a later version may carry more fields").isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"})
    void anInvalidTraceparentStartsNoContext(String value) {
        assertThat(TraceContext.parse(value, "a=b")).isEmpty();
        assertThatThrownBy(() -> new TraceContext(value, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anInvalidTracestateIsDroppedAndTheTraceparentKept() {
        assertThat(TraceContext.parse(VALID, "x=" + "y".repeat(600))).contains(new TraceContext(VALID, Optional.empty()));
        assertThat(TraceContext.parse(VALID, "bad\u00e9")).contains(new TraceContext(VALID, Optional.empty()));
        assertThat(TraceContext.parse(null, "a=b")).isEmpty();
    }
}
