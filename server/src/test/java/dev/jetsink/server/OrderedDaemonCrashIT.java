package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StoredMessage;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@code ORDER=key} through daemon crashes (DESIGN.md "Order per object"): a real {@code jetsink
 * serve} takes PUT/DELETE chains on a few objects while its broker is frozen, so a backlog and a
 * window of unanswered publishes are on hand when it is SIGKILLed; restarted, it takes more and is
 * SIGKILLed again mid-drain. Every acknowledged event is stored once, each object's events in the
 * order the daemon accepted them, numbered 1, 2, 3, ... by {@code Jetsink-Sequence} with no gap.
 */
class OrderedDaemonCrashIT {
    private static final int OBJECTS = 8;
    private static final Pattern SEQUENCER = Pattern.compile("\"sequencer\":\"([0-9A-F]{16})\"");
    private static final Pattern KEY = Pattern.compile("\"key\":\"([^\"]+)\"");

    /** Event {@code n}: a PUT or a DELETE of object {@code n % OBJECTS}, its sequencer {@code n}. */
    private static byte[] body(int n) {
        String key = "chain-" + (n % OBJECTS) + ".jpg";
        String name = (n / OBJECTS) % 2 == 0 ? "s3:ObjectCreated:Put" : "s3:ObjectRemoved:Delete";
        String body = WebhookFixtures.webhook(name, "photos", key, key, n)
            .replace("\"sequencer\":\"1805F5B3A6F0000" + (n % 10) + "\"", "\"sequencer\":\"" + String.format("%016X", n) + "\"");
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private static void post(FaultRig rig, int from, int to) throws Exception {
        for (int n = from; n < to; n++) {
            HttpResponse<String> r = rig.post("/notify", "application/json", body(n));
            assertThat(r.statusCode()).as("event " + n + ": " + r.body()).isEqualTo(200);
        }
    }

    @Test
    void aBacklogCutByTwoSigkillsIsStoredInEachObjectsAcceptanceOrder() throws Exception {
        int events = 480;
        try (FaultRig rig = FaultRig.notifyOnly()) {
            rig.env.put("RUSTFS_NOTIFY_NATS_ORDER", "key");
            rig.startDaemon();
            rig.nats.pause(); // publishes go out and wait: the kill finds them unanswered
            try {
                post(rig, 0, events / 2);
                // one event per object is out, the rest wait behind it
                Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> rig.metric("jetsink_order_held_entries") == events / 2.0 - OBJECTS);
                rig.killDaemon();
            } finally {
                rig.nats.resume();
            }
            rig.startDaemon();
            post(rig, events / 2, events);
            rig.killDaemon(); // while the restarted daemon drains
            rig.startDaemon();
            assertThat(rig.awaitDrained(events, Duration.ofSeconds(120))).as(rig.daemonLog()).isTrue();

            List<StoredMessage> stored = rig.readStream();
            Map<String, List<Integer>> perObject = new TreeMap<>();
            Map<String, List<Long>> sequences = new TreeMap<>();
            for (StoredMessage m : stored) {
                Matcher s = SEQUENCER.matcher(m.text());
                Matcher k = KEY.matcher(m.text());
                assertThat(s.find() && k.find()).as(m.text()).isTrue();
                perObject.computeIfAbsent(k.group(1), x -> new ArrayList<>()).add(Integer.parseInt(s.group(1), 16));
                sequences.computeIfAbsent(k.group(1), x -> new ArrayList<>())
                    .add(Long.parseLong(m.header("Jetsink-Sequence").orElseThrow()));
            }
            assertThat(stored).as("each acknowledged event once").hasSize(events);
            assertThat(perObject).hasSize(OBJECTS);
            perObject.forEach((object, ns) -> assertThat(ns).as(object + " in acceptance order").isSorted()
                .doesNotHaveDuplicates());
            sequences.forEach((object, seqs) -> assertThat(seqs).as(object + ": Jetsink-Sequence 1, 2, 3, ... through the kills")
                .isEqualTo(java.util.stream.LongStream.rangeClosed(1, events / OBJECTS).boxed().toList()));
        }
    }
}
