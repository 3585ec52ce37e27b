package dev.jetsink.internal.nats;

import dev.jetsink.internal.config.ConfigKey;
import io.nats.client.JetStreamOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a target's JetStream requests go: the account's own API ({@code $JS.API}), a domain's
 * ({@code $JS.<domain>.API}, for a stream on the hub of a leaf node) or an explicit prefix (an API
 * imported from another account). Every JetStream context and management call jetsink makes takes
 * its options from here, so publishes, stream validation and {@code stream-plan --apply} all reach
 * the same JetStream.
 *
 * @param domain the {@code jetstream_domain} value
 * @param prefix the {@code jetstream_api_prefix} value
 */
public record JetStreamApi(Optional<String> domain, Optional<String> prefix) {

    /** The connection's account's own JetStream. */
    public static final JetStreamApi DEFAULT = new JetStreamApi(Optional.empty(), Optional.empty());

    /** Checks each value with its key's rule; a domain and a prefix together are refused. */
    public JetStreamApi {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(prefix, "prefix");
        if (domain.isPresent() && prefix.isPresent()) {
            throw new IllegalArgumentException("jetstream_domain and jetstream_api_prefix exclude each other");
        }
        domain.flatMap(d -> ConfigKey.JETSTREAM_DOMAIN.rule().check(ConfigKey.JETSTREAM_DOMAIN.keyName(), d))
            .ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
        prefix.flatMap(p -> ConfigKey.JETSTREAM_API_PREFIX.rule().check(ConfigKey.JETSTREAM_API_PREFIX.keyName(), p))
            .ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
        if (domain.filter(String::isBlank).isPresent() || prefix.filter(String::isBlank).isPresent()) {
            throw new IllegalArgumentException("a JetStream domain or prefix must not be empty");
        }
    }

    /** The API of {@code domain}. */
    public static JetStreamApi domain(String domain) {
        return new JetStreamApi(Optional.of(domain), Optional.empty());
    }

    /** The API under {@code prefix}. */
    public static JetStreamApi prefix(String prefix) {
        return new JetStreamApi(Optional.empty(), Optional.of(prefix));
    }

    /** jnats options for a JetStream context or management object, with jnats' request timeout. */
    public JetStreamOptions options() {
        return builder().build();
    }

    /** As {@link #options()}, each request bounded by {@code requestTimeout}. */
    public JetStreamOptions options(Duration requestTimeout) {
        return builder().requestTimeout(requestTimeout).build();
    }

    private JetStreamOptions.Builder builder() {
        JetStreamOptions.Builder b = JetStreamOptions.builder();
        domain.ifPresent(b::domain);
        prefix.ifPresent(b::prefix);
        return b;
    }

    /** Whether requests go to the account's own {@code $JS.API}. */
    public boolean isDefault() {
        return domain.isEmpty() && prefix.isEmpty();
    }

    /** How logs and the CLI name it: {@code JetStream domain hub}, {@code JetStream API prefix $JS.hub.API}. */
    public String describe() {
        return domain.map(d -> "JetStream domain " + d)
            .or(() -> prefix.map(p -> "JetStream API prefix " + p))
            .orElse("the account's JetStream");
    }
}
