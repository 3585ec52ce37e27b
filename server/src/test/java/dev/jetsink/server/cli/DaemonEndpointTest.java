package dev.jetsink.server.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The address the CLI dials for the daemon's configured listen address. */
class DaemonEndpointTest {

    @ParameterizedTest(name = "{0} is dialled as {1}")
    @CsvSource({
        "0.0.0.0:9020, 127.0.0.1:9020",
        "[::]:9020, [::1]:9020",
        ":::9020, [::1]:9020",
        "[::0]:9020, [::1]:9020",
        "127.0.0.1:9020, 127.0.0.1:9020",
        "10.1.2.3:9020, 10.1.2.3:9020",
        "[::1]:9020, [::1]:9020",
        "[fd00::5]:9020, [fd00::5]:9020",
        "jetsink.example:443, jetsink.example:443"})
    void anEveryAddressBindIsDialledOnLoopbackOfItsFamily(String listen, String dialled) {
        assertThat(DaemonEndpoint.dialable(listen)).isEqualTo(dialled);
    }
}
