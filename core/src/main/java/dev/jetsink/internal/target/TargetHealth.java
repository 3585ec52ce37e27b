package dev.jetsink.internal.target;

/**
 * A target's health (DESIGN.md "Status"): derived from the connection and the last verdict.
 *
 * @param target display id
 * @param status online, offline, error or disabled
 * @param reason why, for anything but online
 */
public record TargetHealth(String target, Status status, String reason) {

    public enum Status {
        ONLINE, OFFLINE, ERROR, DISABLED;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public boolean online() {
        return status == Status.ONLINE;
    }
}
