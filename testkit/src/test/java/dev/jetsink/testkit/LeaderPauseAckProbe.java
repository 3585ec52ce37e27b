package dev.jetsink.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.JetStream;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PublishOptions;
import io.nats.client.api.PublishAck;
import io.nats.client.api.StreamState;
import io.nats.client.impl.Headers;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Diagnostic, not part of the suite: does nats-server alone (raw jnats, no jetsink) acknowledge
 * publishes to an R3 stream that are later not in it, when the stream leader is frozen with
 * SIGSTOP for a few seconds and continued (RELIABILITY.md "Fault campaign", finding 3)?
 *
 * <p>Publisher threads, each on its own connection to all three nodes, send distinct messages with
 * a {@code Nats-Msg-Id} through {@code publishAsync} and send the same id again after a timeout or
 * failure until an ack comes. Meanwhile the leader is paused for 3-6 s, continued, and sometimes
 * SIGKILLed 8 s later and restarted. At the end every acknowledged id must be in the stream once.
 * Then the leadership is moved until each node has led once and the stream is read under each
 * leader, since the replicas can differ. The brokers run with {@code -D}; their logs, the probe's
 * log, every ack ({@code acks.tsv}) and each leader's stream ({@code stream-nX.tsv}) are kept in
 * {@code /tmp/ackprobe/seed-<seed>/}.
 *
 * <p>It is not part of the suite (its name matches no test pattern) and runs only when named (it takes
 * minutes and proves something about the broker, not jetsink):
 * <pre>
 * mvn -o -B verify -pl testkit -Dit.test=LeaderPauseAckProbe \
 *   -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * Knobs (system properties): {@code ackProbe.minutes} (5), {@code ackProbe.seed} (random),
 * {@code ackProbe.threads} (4), {@code ackProbe.inflight} per thread (256), {@code ackProbe.rate}
 * messages a second in all (1000, 0 for no limit), {@code ackProbe.ackTimeoutMs} (5000),
 * {@code ackProbe.killEvery} (a kill after one pause in this many, 3; 0 for none),
 * {@code ackProbe.dir} (/tmp/ackprobe).
 */
class LeaderPauseAckProbe {

    private static final String STREAM = "PROBE";
    private static final String SUBJECT = "probe.m";
    /** How many lines of each kind of finding to print; the counts cover all. */
    private static final int SHOWN = 100;

    private final long seed = Long.getLong("ackProbe.seed", System.nanoTime() % 1_000_000);
    private final long t0 = System.nanoTime();
    private final Map<String, Sent> sent = new ConcurrentHashMap<>();
    private final List<long[]> pauses = new CopyOnWriteArrayList<>();
    private final AtomicLong attempts = new AtomicLong();
    private final ScheduledExecutorService resends = Executors.newSingleThreadScheduledExecutor();
    private Path dir;
    private volatile BufferedWriter log;
    private volatile boolean stop;
    private int kills;

    /** One message: what was sent and every ack it got. */
    private static final class Sent {
        final String id;
        final long firstNanos;
        volatile int tries;
        final List<String> acks = new CopyOnWriteArrayList<>();
        volatile long seq = -1;
        volatile boolean duplicate;
        volatile long ackNanos;

        Sent(String id, long firstNanos) {
            this.id = id;
            this.firstNanos = firstNanos;
        }
    }

    @Test
    void ackedPublishesSurviveAPausedLeader() throws Exception {
        int minutes = Integer.getInteger("ackProbe.minutes", 5);
        int threads = Integer.getInteger("ackProbe.threads", 4);
        int inflight = Integer.getInteger("ackProbe.inflight", 256);
        int rate = Integer.getInteger("ackProbe.rate", 1000);
        int killEvery = Integer.getInteger("ackProbe.killEvery", 3);
        Duration ackTimeout = Duration.ofMillis(Long.getLong("ackProbe.ackTimeoutMs", 5000));
        dir = Path.of(System.getProperty("ackProbe.dir", "/tmp/ackprobe")).resolve("seed-" + seed);
        Files.createDirectories(dir);
        log = Files.newBufferedWriter(dir.resolve("probe.log"), StandardCharsets.UTF_8);
        say("start seed=" + seed + " minutes=" + minutes + " threads=" + threads + " inflight=" + inflight
                + " rate=" + rate + " ackTimeout=" + ackTimeout.toMillis() + "ms killEvery=" + killEvery
                + " binary=" + NatsBinary.locate());

        List<Connection> conns = new ArrayList<>();
        List<Thread> senders = new ArrayList<>();
        try (NatsCluster cluster = NatsCluster.start(NatsBinary.locate(), List.of("-D"))) {
            try {
                for (int i = 0; i < 3; i++) {
                    say("node n" + (i + 1) + " pid=" + cluster.node(i).pid() + " " + cluster.node(i));
                }
                Connection admin = connect(cluster, "admin");
                conns.add(admin);
                Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).replicas(NatsCluster.SIZE)
                        .duplicateWindow(Duration.ofMinutes(10)).build());
                say("stream " + STREAM + " leader n" + (cluster.streamLeader(STREAM) + 1));
                for (int i = 0; i < threads; i++) {
                    Connection c = connect(cluster, "probe-" + i);
                    conns.add(c);
                    int n = i;
                    long gapNanos = rate <= 0 ? 0 : TimeUnit.SECONDS.toNanos(1) * threads / rate;
                    Thread t = new Thread(() -> publish(n, c, inflight, gapNanos, ackTimeout), "probe-" + i);
                    senders.add(t);
                    t.start();
                }

                nemesis(cluster, Duration.ofMinutes(minutes), killEvery);

                stop = true;
                for (Thread t : senders) {
                    t.join(180_000);
                }
                long unacked = sent.values().stream().filter(s -> s.seq < 0).count();
                say("publishers stopped, unacked=" + unacked);
                awaitCurrent(cluster);
                int leader = cluster.streamLeader(STREAM);
                String result = check(read(admin, "n" + (leader + 1)), minutes);
                long worst = compareReplicas(cluster, admin, leader);
                assertThat(result).as("logs in " + dir).contains(" lost=0 ").contains(" doubled=0 ")
                        .contains(" reassigned=0 ");
                assertThat(worst).as("acked messages missing under some other leader; logs in " + dir).isZero();
            } finally {
                stop = true;
                for (Connection c : conns) {
                    c.close();
                }
                resends.shutdownNow();
                for (int i = 0; i < NatsCluster.SIZE; i++) {
                    Files.copy(cluster.node(i).logFile(), dir.resolve("nats-n" + (i + 1) + ".log"),
                            StandardCopyOption.REPLACE_EXISTING);
                }
                say("broker logs kept in " + dir);
                BufferedWriter w = log;
                log = null;
                w.close();
            }
        }
    }

    private Connection connect(NatsCluster cluster, String name) throws Exception {
        ConnectionListener events = (c, type) -> say("conn " + name + " " + type + " "
                + (c.getServerInfo() == null ? "" : c.getServerInfo().getServerName()));
        return Nats.connect(new Options.Builder().servers(cluster.urlArray()).connectionName(name)
                .maxReconnects(-1).connectionListener(events).build());
    }

    /** Sends distinct messages, at most {@code inflight} unacknowledged, until {@link #stop}. */
    private void publish(int thread, Connection conn, int inflight, long gapNanos, Duration ackTimeout) {
        Semaphore window = new Semaphore(inflight);
        try {
            JetStream js = conn.jetStream();
            long next = System.nanoTime();
            for (long n = 0; !stop; n++) {
                window.acquire();
                Sent s = new Sent("p" + thread + "-" + n, System.nanoTime());
                sent.put(s.id, s);
                send(js, s, window, ackTimeout);
                next += gapNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                } else if (wait < -TimeUnit.SECONDS.toNanos(1)) {
                    next = System.nanoTime();
                }
            }
            // the last ones are re-sent until acked; wait for them, bounded
            window.tryAcquire(inflight, 150, TimeUnit.SECONDS);
        } catch (InterruptedException | IOException e) {
            say("publisher " + thread + " stopped: " + e);
        }
    }

    private void send(JetStream js, Sent s, Semaphore window, Duration ackTimeout) {
        s.tries++;
        attempts.incrementAndGet();
        Headers headers = new Headers().put("Nats-Msg-Id", s.id);
        PublishOptions opts = PublishOptions.builder().expectedStream(STREAM).streamTimeout(ackTimeout).build();
        CompletableFuture<PublishAck> f;
        try {
            f = js.publishAsync(SUBJECT, headers, s.id.getBytes(StandardCharsets.UTF_8), opts);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.orTimeout(ackTimeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((ack, e) -> {
            if (e == null) {
                s.acks.add(ack.getSeqno() + (ack.isDuplicate() ? "d" : "") + "@" + at(System.nanoTime()));
                if (s.seq < 0) {
                    s.duplicate = ack.isDuplicate();
                    s.ackNanos = System.nanoTime();
                    s.seq = ack.getSeqno();
                    window.release();
                }
            } else if (s.seq < 0) {
                resends.schedule(() -> send(js, s, window, ackTimeout), 100, TimeUnit.MILLISECONDS);
            }
        });
    }

    private void nemesis(NatsCluster cluster, Duration length, int killEvery) throws InterruptedException {
        Random r = new Random(seed);
        long end = System.nanoTime() + length.toNanos();
        Thread.sleep(5_000);
        for (int round = 1; System.nanoTime() < end; round++) {
            int leader = cluster.streamLeader(STREAM);
            long hold = 3_000 + r.nextInt(3_001);
            NatsServer node = cluster.node(leader);
            say("pause #" + round + " leader n" + (leader + 1) + " pid=" + node.pid() + " hold=" + hold + "ms"
                    + " acked=" + acked());
            long paused = System.nanoTime();
            node.pause();
            Thread.sleep(hold);
            node.resume();
            long resumed = System.nanoTime();
            pauses.add(new long[] {round, leader, paused, resumed});
            say("resume #" + round + " n" + (leader + 1) + " acked=" + acked());
            if (killEvery > 0 && r.nextInt(killEvery) == 0) {
                Thread.sleep(8_000);
                say("kill #" + round + " n" + (leader + 1) + " (8 s after resume)");
                cluster.kill(leader);
                kills++;
                Thread.sleep(1_000 + r.nextInt(2_000));
                restart(cluster, leader);
                say("restart #" + round + " n" + (leader + 1) + " pid=" + node.pid());
            }
            say("leader now n" + (cluster.streamLeader(STREAM) + 1));
            Thread.sleep(5_000 + r.nextInt(5_001));
        }
        say("nemesis done after " + pauses.size() + " pauses");
    }

    private void restart(NatsCluster cluster, int i) throws InterruptedException {
        for (int tries = 0; ; tries++) {
            try {
                cluster.restart(i);
                return;
            } catch (IllegalStateException e) {
                if (tries > 20) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    private void awaitCurrent(NatsCluster cluster) {
        for (int tries = 0; ; tries++) {
            try {
                cluster.awaitStreamCurrent(STREAM);
                say("replicas current, leader n" + (cluster.streamLeader(STREAM) + 1));
                return;
            } catch (IllegalStateException e) {
                if (tries > 4) {
                    throw e;
                }
            }
        }
    }

    /** What one leader serves: msg id by sequence. */
    private record View(String node, long first, long last, Map<Long, String> idAt) {
        Map<String, List<Long>> seqsOf() {
            Map<String, List<Long>> out = new HashMap<>();
            idAt.forEach((seq, id) -> out.computeIfAbsent(id, k -> new ArrayList<>()).add(seq));
            return out;
        }
    }

    /**
     * Reads every sequence with {@code $JS.API.STREAM.MSG.GET}, which the stream leader answers
     * from its own store (an ordered consumer may be placed on a follower and read that one's).
     */
    private View read(Connection conn, String node) {
        StreamState state = Streams.state(conn, STREAM);
        Map<Long, String> idAt = new TreeMap<>();
        Streams.readFromLeader(conn, STREAM).forEach(m -> idAt.put(m.seq(), m.text()));
        say("read " + node + ": " + idAt.size() + " messages, first=" + state.getFirstSequence() + " last="
                + state.getLastSequence() + " count=" + state.getMsgCount());
        return new View(node, state.getFirstSequence(), state.getLastSequence(), idAt);
    }

    /**
     * Moves the leadership until every node has led once and reads the stream under each, to see
     * whether the replicas hold the same messages at the same sequences. Returns the most acked
     * messages any of them lacks.
     */
    private long compareReplicas(NatsCluster cluster, Connection admin, int leader) throws Exception {
        Map<Integer, View> views = new HashMap<>();
        views.put(leader, read(admin, "n" + (leader + 1)));
        for (int tries = 0; views.size() < NatsCluster.SIZE && tries < 12; tries++) {
            try {
                admin.request("$JS.API.STREAM.LEADER.STEPDOWN." + STREAM, new byte[0], Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                say("stepdown: " + e);
            }
            Thread.sleep(2_000);
            awaitCurrent(cluster);
            int now = cluster.streamLeader(STREAM);
            if (!views.containsKey(now)) {
                views.put(now, read(admin, "n" + (now + 1)));
            }
        }
        View base = views.get(leader);
        dump(views);
        long worst = 0;
        for (View v : views.values()) {
            long differ = 0;
            long ackedMissing = 0;
            Map<String, List<Long>> seqsOf = v.seqsOf();
            for (Map.Entry<Long, String> e : base.idAt.entrySet()) {
                if (!e.getValue().equals(v.idAt.get(e.getKey()))) {
                    differ++;
                }
            }
            for (Sent s : sent.values()) {
                if (s.seq >= 0 && !seqsOf.containsKey(s.id)) {
                    ackedMissing++;
                }
            }
            say("replica view " + v.node + ": messages=" + v.idAt.size() + " first=" + v.first + " last=" + v.last
                    + " seqs differing from " + base.node + "=" + differ + " acked missing=" + ackedMissing);
            worst = Math.max(worst, ackedMissing);
        }
        return worst;
    }

    private String check(View view, int minutes) {
        Map<String, List<Long>> seqsOf = view.seqsOf();
        Map<Long, String> idAt = view.idAt;
        long acked = 0;
        long dupAcks = 0;
        long lost = 0;
        long doubled = 0;
        long reassigned = 0;
        long moved = 0;
        Map<String, Integer> lostBy = new TreeMap<>();
        Map<String, Integer> doubledBy = new TreeMap<>();
        for (Sent s : sent.values()) {
            if (s.seq < 0) {
                continue;
            }
            acked++;
            dupAcks += s.duplicate ? 1 : 0;
            List<Long> seqs = seqsOf.getOrDefault(s.id, List.of());
            String holder = idAt.get(s.seq);
            if (holder != null && !holder.equals(s.id)) {
                reassigned++;
            }
            if (seqs.isEmpty()) {
                lost++;
                lostBy.merge(pauseOf(s), 1, Integer::sum);
                show(lost, "lost " + s.id + " " + describe(s) + " seq " + s.seq + " now holds "
                        + (holder == null ? "nothing" : holder));
            } else if (seqs.size() > 1) {
                doubled++;
                doubledBy.merge(pauseOf(s), 1, Integer::sum);
                show(doubled, "doubled " + s.id + " " + describe(s) + " stored at " + seqs);
            } else if (seqs.get(0) != s.seq) {
                moved++;
                show(moved, "moved " + s.id + " " + describe(s) + " stored at " + seqs.get(0) + " (seq "
                        + s.seq + " holds " + holder + ")");
            }
        }
        long gaps = (view.last - view.first + 1) - idAt.size();
        String result = "ackprobe seed=" + seed + " minutes=" + minutes + " pauses=" + pauses.size()
                + " kills=" + kills + " published=" + sent.size() + " attempts=" + attempts.get()
                + " acked=" + acked + " dupAcks=" + dupAcks + " stream=" + idAt.size() + " first=" + view.first
                + " last=" + view.last
                + " lost=" + lost + " doubled=" + doubled + " reassigned=" + reassigned + " moved=" + moved
                + " gaps=" + gaps + " ";
        say("lost by the pause before their ack: " + lostBy);
        say("doubled by the pause before their ack: " + doubledBy);
        say(result);
        System.out.println(result);
        return result;
    }

    /** Writes acks.tsv (msg id, acked seq, duplicate, ack time) and, per node, the id at each seq. */
    private void dump(Map<Integer, View> views) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("acks.tsv"), StandardCharsets.UTF_8)) {
            for (Sent s : sent.values()) {
                w.write(s.id + "\t" + s.seq + "\t" + s.duplicate + "\t" + at(s.ackNanos) + "\t" + s.acks + "\n");
            }
        }
        for (View v : views.values()) {
            try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("stream-" + v.node + ".tsv"),
                    StandardCharsets.UTF_8)) {
                for (Map.Entry<Long, String> e : v.idAt.entrySet()) {
                    w.write(e.getKey() + "\t" + e.getValue() + "\n");
                }
            }
        }
    }

    private void show(long count, String line) {
        if (count <= SHOWN) {
            say(line);
        }
    }

    private String pauseOf(Sent s) {
        String out = "none";
        for (long[] p : pauses) {
            if (p[2] <= s.ackNanos) {
                out = "#" + p[0] + " n" + (p[1] + 1);
            }
        }
        return out;
    }

    /** First send, tries, acks, and the ack's time against the pause before it. */
    private String describe(Sent s) {
        String near = "";
        for (long[] p : pauses) {
            if (p[2] <= s.ackNanos) {
                near = "pause #" + p[0] + " n" + (p[1] + 1) + ": sent " + rel(s.firstNanos - p[3])
                        + " acked " + rel(s.ackNanos - p[3]) + " after resume";
            }
        }
        return "(sent " + at(s.firstNanos) + " tries=" + s.tries + " acks=" + s.acks + "; " + near + ")";
    }

    private long acked() {
        return sent.values().stream().filter(s -> s.seq >= 0).count();
    }

    private String at(long nanos) {
        return rel(nanos - t0);
    }

    private static String rel(long nanos) {
        return String.format("%+.3fs", nanos / 1e9);
    }

    private synchronized void say(String line) {
        String text = LocalTime.now(ZoneOffset.UTC) + " " + at(System.nanoTime()) + " " + line;
        System.out.println(text);
        try {
            if (log != null) {
                log.write(text);
                log.newLine();
                log.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
