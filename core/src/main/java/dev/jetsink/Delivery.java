package dev.jetsink;

/**
 * What the stream answered for one delivered event.
 *
 * @param stream    the stream that stored it (empty on the Core path, which has no ack)
 * @param streamSeq its sequence in that stream (0 on the Core path)
 * @param duplicate the stream already held this {@code Nats-Msg-Id} (a retry, or the same event
 *                  sent twice): stored once, and this is that one copy
 * @param attempts  publish attempts it took, across restarts of this process
 */
public record Delivery(String stream, long streamSeq, boolean duplicate, long attempts) {
}
