package dev.jetsink.internal.config;

import java.util.Locale;

/**
 * The two kinds of NATS target. Everything that differs between notify and audit targets is a
 * field here, so the rest of the code is one implementation parameterised by kind.
 */
public enum TargetKind {
    NOTIFY("notify", "RUSTFS_NOTIFY_NATS_", "RUSTFS_NOTIFY_ENABLE", "rustfs_notification_", "rustfs_notification_target_queue_length"),
    AUDIT("audit", "RUSTFS_AUDIT_NATS_", "RUSTFS_AUDIT_ENABLE", "rustfs_audit_", "rustfs_audit_target_queue_length");

    private final String label;
    private final String envPrefix;
    private final String globalEnableVariable;
    private final String metricPrefix;
    private final String queueLengthMetric;

    TargetKind(String label, String envPrefix, String globalEnableVariable, String metricPrefix, String queueLengthMetric) {
        this.label = label;
        this.envPrefix = envPrefix;
        this.globalEnableVariable = globalEnableVariable;
        this.metricPrefix = metricPrefix;
        this.queueLengthMetric = queueLengthMetric;
    }

    /** {@code notify} or {@code audit}: used in target ids, queue directory names and logs. */
    public String label() {
        return label;
    }

    /** Environment prefix of this kind's target keys, e.g. {@code RUSTFS_NOTIFY_NATS_}. */
    public String envPrefix() {
        return envPrefix;
    }

    /** The kind-wide switch, {@code RUSTFS_NOTIFY_ENABLE} or {@code RUSTFS_AUDIT_ENABLE}. */
    public String globalEnableVariable() {
        return globalEnableVariable;
    }

    /** Prefix of the origin system's metric names, e.g. {@code rustfs_notification_}. */
    public String metricPrefix() {
        return metricPrefix;
    }

    /** Name of the queue-length gauge (DESIGN.md "Metrics"). */
    public String queueLengthMetric() {
        return queueLengthMetric;
    }

    /** Environment variable of {@code key} for the default instance, e.g. {@code RUSTFS_NOTIFY_NATS_QUEUE_DIR}. */
    public String variable(String key) {
        return envPrefix + key.toUpperCase(Locale.ROOT);
    }

    public static TargetKind fromLabel(String label) {
        for (TargetKind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown target kind: " + label);
    }
}
