package dev.jetsink.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Parses the {@code address} key into jnats server URLs. Credentials inside a URL are refused:
 * they would bypass the one-auth-method rule and leak into every line that prints the address.
 */
public final class ServerAddress {
    private ServerAddress() {
    }

    /**
     * The server URLs of {@code address}: {@code host:port} becomes {@code nats://host:port};
     * {@code nats://} and {@code tls://} URLs are kept (port optional). Empty if malformed.
     */
    public static Optional<List<String>> parse(String address) {
        List<String> urls = new ArrayList<>();
        for (String raw : address.split(",", -1)) {
            String item = raw.trim();
            int scheme = item.indexOf("://");
            String hostPort;
            String url;
            if (scheme >= 0) {
                String name = item.substring(0, scheme).toLowerCase(Locale.ROOT);
                if (!name.equals("nats") && !name.equals("tls")) {
                    return Optional.empty();
                }
                hostPort = item.substring(scheme + 3);
                if (!validHostPort(hostPort, true)) {
                    return Optional.empty();
                }
                url = name + "://" + hostPort;
            } else {
                hostPort = item;
                if (!validHostPort(hostPort, false)) {
                    return Optional.empty();
                }
                url = "nats://" + hostPort;
            }
            urls.add(url);
        }
        return Optional.of(List.copyOf(urls));
    }

    private static boolean validHostPort(String hostPort, boolean portOptional) {
        if (hostPort.isEmpty() || hostPort.contains("@") || hostPort.contains("/")
            || hostPort.chars().anyMatch(Character::isWhitespace)) {
            return false;
        }
        int colon = hostPort.lastIndexOf(':');
        boolean bracketed = hostPort.startsWith("[");
        if (colon < 0 || (bracketed && colon < hostPort.indexOf(']'))) {
            return portOptional && (!bracketed || hostPort.endsWith("]"));
        }
        String host = hostPort.substring(0, colon);
        String port = hostPort.substring(colon + 1);
        if (host.isEmpty()) {
            return false;
        }
        try {
            int p = Integer.parseInt(port);
            return p >= 1 && p <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The address with any URL user-info replaced by {@code ***}, safe to print. */
    static String redacted(String address) {
        return address.replaceAll("://[^/@,]*@", "://***@");
    }
}
