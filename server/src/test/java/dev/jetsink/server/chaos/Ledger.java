package dev.jetsink.server.chaos;

import dev.jetsink.Receipt;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * What the workload did, by event token (each event carries one token, {@code cx...x}, in its
 * versionId, request id or event id): sent, answered 2xx, and for the sink its receipt.
 */
final class Ledger {

    /** Where an event is meant to end up. */
    enum Route { JETSTREAM, CORE }

    private final Map<String, Route> sent = new ConcurrentHashMap<>();
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final Map<String, Receipt> receipts = new ConcurrentHashMap<>();

    void sent(String token, Route path) {
        sent.put(token, path);
    }

    void acked(String token) {
        acked.add(token);
    }

    void receipt(String token, Receipt receipt) {
        receipts.put(token, receipt);
        acked.add(token);
    }

    Map<String, Route> sent() {
        return Map.copyOf(sent);
    }

    boolean isAcked(String token) {
        return acked.contains(token);
    }

    int sentCount() {
        return sent.size();
    }

    int ackedCount() {
        return acked.size();
    }

    Map<String, Receipt> receipts() {
        return Map.copyOf(receipts);
    }

    /** Acknowledged events on {@code path}. */
    Set<String> acked(Route path) {
        return acked.stream().filter(t -> sent.get(t) == path).collect(Collectors.toSet());
    }
}
