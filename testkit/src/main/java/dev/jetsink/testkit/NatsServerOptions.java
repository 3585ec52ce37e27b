package dev.jetsink.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How a {@link NatsServer} is started.
 *
 * @param binary the nats-server executable
 * @param jetStream whether to pass {@code -js}
 * @param storeDir the JetStream store dir; empty means a fresh temporary dir
 * @param config extra config-file text ({@code tls {}}, {@code authorization {}}, operator
 *     blocks...); when present (or with {@code maxPayload}) a config file is written and passed
 *     with {@code -c}. Command-line flags the fixture sets (host, port, store, log) win over it.
 * @param maxPayload the server's {@code max_payload} in bytes, if not the default 1 MiB
 * @param extraArgs further command-line arguments, appended last
 */
public record NatsServerOptions(Path binary, boolean jetStream, Optional<Path> storeDir,
                                Optional<String> config, OptionalInt maxPayload,
                                List<String> extraArgs) {

    /** Copies the argument list so the options stay immutable. */
    public NatsServerOptions {
        extraArgs = List.copyOf(extraArgs);
    }

    /** The config file to write: {@code max_payload} and the extra text, if there is either. */
    public Optional<String> configFileText() {
        StringBuilder text = new StringBuilder();
        maxPayload.ifPresent(max -> text.append("max_payload: ").append(max).append('\n'));
        config.ifPresent(extra -> text.append(extra).append('\n'));
        return text.length() == 0 ? Optional.empty() : Optional.of(text.toString());
    }

    /** A builder with JetStream on, a temporary store dir and {@link NatsBinary#locate()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link NatsServerOptions} and, with {@link #build()}, the server itself. */
    public static final class Builder {
        private Optional<Path> binary = Optional.empty();
        private boolean jetStream = true;
        private Optional<Path> storeDir = Optional.empty();
        private Optional<String> config = Optional.empty();
        private OptionalInt maxPayload = OptionalInt.empty();
        private final List<String> extraArgs = new ArrayList<>();

        private Builder() {
        }

        /** Uses this executable instead of searching for one. */
        public Builder binary(Path binary) {
            this.binary = Optional.of(binary);
            return this;
        }

        /** Turns JetStream on (the default) or off. */
        public Builder jetStream(boolean on) {
            this.jetStream = on;
            return this;
        }

        /** Uses this store dir (kept on close) instead of a temporary one. */
        public Builder storeDir(Path dir) {
            this.storeDir = Optional.of(dir);
            return this;
        }

        /** Adds config-file text; see {@link NatsServerOptions#config()}. */
        public Builder config(String text) {
            this.config = Optional.of(text);
            return this;
        }

        /** Sets the server's {@code max_payload} in bytes. */
        public Builder maxPayload(int bytes) {
            this.maxPayload = OptionalInt.of(bytes);
            return this;
        }

        /** Appends command-line arguments. */
        public Builder args(String... args) {
            this.extraArgs.addAll(Arrays.asList(args));
            return this;
        }

        /** The options; locates the binary now if none was given. */
        public NatsServerOptions options() {
            return new NatsServerOptions(binary.orElseGet(NatsBinary::locate), jetStream, storeDir,
                    config, maxPayload, extraArgs);
        }

        /** A server with these options, not yet started; call {@link NatsServer#start()}. */
        public NatsServer build() {
            return new NatsServer(options());
        }
    }
}
