package dev.jetsink.server.admin;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.nats.ConnectionSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A target's resolved configuration as the admin API shows it: the same {@code key_values} shape a
 * {@code PUT} accepts, every default filled in, secrets as {@code ***} (DESIGN.md "Admin API").
 */
public final class TargetView {

    static final String HIDDEN = "***";

    private TargetView() {
    }

    /** {@code [{"key": "address", "value": ...}, ...]} in key-table order; unset keys left out. */
    static List<Map<String, String>> keyValues(TargetConfig c) {
        Map<ConfigKey, String> v = new LinkedHashMap<>();
        v.put(ConfigKey.ENABLE, "on");
        v.put(ConfigKey.ADDRESS, String.join(",", ConnectionSettings.from(c).displayServers()));
        v.put(ConfigKey.SUBJECT, c.subject());
        c.username().ifPresent(u -> v.put(ConfigKey.USERNAME, u));
        c.password().ifPresent(p -> v.put(ConfigKey.PASSWORD, HIDDEN));
        c.token().ifPresent(t -> v.put(ConfigKey.TOKEN, HIDDEN));
        path(c.credentialsFile()).ifPresent(p -> v.put(ConfigKey.CREDENTIALS_FILE, p));
        // the path only: the seed itself is read by the connection and nowhere else
        path(c.nkeySeedFile()).ifPresent(p -> v.put(ConfigKey.NKEY_SEED_FILE, p));
        path(c.tlsCa()).ifPresent(p -> v.put(ConfigKey.TLS_CA, p));
        path(c.tlsClientCert()).ifPresent(p -> v.put(ConfigKey.TLS_CLIENT_CERT, p));
        path(c.tlsClientKey()).ifPresent(p -> v.put(ConfigKey.TLS_CLIENT_KEY, p));
        v.put(ConfigKey.TLS_REQUIRED, onOff(c.tlsRequired()));
        path(c.queueDir()).ifPresent(p -> v.put(ConfigKey.QUEUE_DIR, p));
        v.put(ConfigKey.QUEUE_LIMIT, Long.toString(c.queueLimit()));
        v.put(ConfigKey.JETSTREAM_ENABLE, onOff(c.jetstreamEnabled()));
        c.streamName().ifPresent(s -> v.put(ConfigKey.JETSTREAM_STREAM_NAME, s));
        v.put(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, Long.toString(c.ackTimeout().toSeconds()));
        c.jetStreamDomain().ifPresent(d -> v.put(ConfigKey.JETSTREAM_DOMAIN, d));
        c.jetStreamApiPrefix().ifPresent(p -> v.put(ConfigKey.JETSTREAM_API_PREFIX, p));
        c.comment().ifPresent(s -> v.put(ConfigKey.COMMENT, s));
        v.put(ConfigKey.PUBLISH_WINDOW, Integer.toString(c.publishWindow()));
        v.put(ConfigKey.MSG_ID, c.msgIdMode().label());
        v.put(ConfigKey.FORMAT, c.format().label());
        v.put(ConfigKey.ORDER, c.order().label());
        v.put(ConfigKey.FAILED_MAX_RECORDS, Integer.toString(c.failedMaxRecords()));
        v.put(ConfigKey.FAILED_MAX_AGE_HOURS, Long.toString(c.failedMaxAge().toHours()));
        List<Map<String, String>> out = new ArrayList<>(v.size());
        v.forEach((k, value) -> {
            Map<String, String> pair = new LinkedHashMap<>();
            pair.put("key", k.keyName());
            pair.put("value", k.isSecret() ? HIDDEN : value);
            out.add(pair);
        });
        return out;
    }

    private static Optional<String> path(Optional<Path> p) {
        return p.map(Path::toString);
    }

    private static String onOff(boolean b) {
        return b ? "on" : "off";
    }
}
