package dev.jetsink.server.chaos;

import dev.jetsink.Receipt;
import dev.jetsink.Sink;
import dev.jetsink.event.S3EventRecord;
import java.util.concurrent.TimeUnit;

/**
 * The library front door under the same faults: one thread sends notify events through an
 * in-process {@link Sink} (straight to the cluster, no proxy) and keeps each {@link Receipt}. A
 * send the sink refuses is sent again, as a caller would; the next event is sent only once the
 * sink took the one before. Like the senders' events they share objects ({@link SenderForm#objectKey}
 * with sender {@code s}) and alternate put and delete per object; the token is the versionId.
 */
final class SinkLoad implements Runnable {

    /** The sender name in the sink's tokens ({@code cxsn<seq>x}) and objects ({@code chaos/ss-k<n>.jpg}). */
    static final String SENDER = "s";

    private final Sink<S3EventRecord> sink;
    private final Ledger ledger;
    private final History history;
    private final long pauseMillis;
    private final Thread thread = new Thread(this, "chaos-sink-load");
    private volatile boolean stop;

    SinkLoad(Sink<S3EventRecord> sink, Ledger ledger, History history, long pauseMillis) {
        this.sink = sink;
        this.ledger = ledger;
        this.history = history;
        this.pauseMillis = pauseMillis;
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void stop() throws InterruptedException {
        stop = true;
        thread.join(60_000);
    }

    @Override
    public void run() {
        long seq = 0;
        while (!stop) {
            String token = "cx" + SENDER + "n" + seq + "x";
            String key = SenderForm.objectKey(SENDER, seq);
            S3EventRecord event = SenderForm.isPut(seq, 0, 1)
                ? S3EventRecord.builder("s3:ObjectCreated:Put", "photos", key).size(1024 + seq)
                    .contentType("image/jpeg").versionId(token).build()
                : S3EventRecord.builder("s3:ObjectRemoved:Delete", "photos", key).versionId(token).build();
            ledger.sent(token, Ledger.Route.JETSTREAM);
            history.log("send sink object=" + key + " events=[" + token + "]");
            while (true) {
                try {
                    Receipt r = sink.send(event).get(30, TimeUnit.SECONDS);
                    ledger.receipt(token, r);
                    history.log("ack sink msg_id=" + r.msgId() + " events=[" + token + "]");
                    r.delivered().whenComplete((d, e) -> history.log("delivered sink events=[" + token + "] "
                        + (e == null ? d.stream() + "#" + d.streamSeq() + (d.duplicate() ? " duplicate" : "") : "not: " + e)));
                    break;
                } catch (Exception e) {
                    history.log("retry sink events=[" + token + "] " + e.toString().lines().findFirst().orElse(""));
                    if (stop) {
                        history.log("abandoned sink events=[" + token + "]");
                        return;
                    }
                    sleep(200);
                }
            }
            seq++;
            sleep(pauseMillis);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
