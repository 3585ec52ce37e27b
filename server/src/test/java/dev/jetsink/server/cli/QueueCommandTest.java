package dev.jetsink.server.cli;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.queue.SegmentedQueue;
import dev.jetsink.server.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

class QueueCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void statsListAndShowDescribeTheLiveEntries() throws Exception {
        QueuedEntry a;
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(100))) {
            a = q.append(new EventMetadata(TargetKind.NOTIFY, "photos", "cat.jpg", "s3:ObjectCreated:Put", "image/jpeg"),
                "{\"EventName\":\"s3:ObjectCreated:Put\"}".getBytes(StandardCharsets.UTF_8)).get();
            QueuedEntry b = q.append(new EventMetadata(TargetKind.NOTIFY, "photos", "dog.jpg", "s3:ObjectRemoved:Delete", ""),
                "{}".getBytes(StandardCharsets.UTF_8)).get();
            q.resolve(b.seq());
        }
        // the queue is closed before the commands read it

        assertThat(run("queue", "stats", dir.toString())).isZero();
        assertThat(out.toString()).contains("live entries:    1").contains("segments:        1")
            .contains("corrupt records: 0");

        out.getBuffer().setLength(0);
        assertThat(run("queue", "list", dir.toString())).isZero();
        assertThat(out.toString()).contains(a.msgId()).contains("photos/cat.jpg s3:ObjectCreated:Put")
            .doesNotContain("dog.jpg");

        out.getBuffer().setLength(0);
        assertThat(run("queue", "show", dir.toString(), String.valueOf(a.seq()))).isZero();
        assertThat(out.toString()).contains("msg id:       " + a.msgId())
            .contains("{\"EventName\":\"s3:ObjectCreated:Put\"}");
    }

    @Test
    void showPrintsTheAttributesStoredWithAnEntry() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(100))) {
            EntryAttributes attributes = EntryAttributes.replays(2).withSubject(Optional.of("events.photos"))
                .withTrace(Optional.of("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), Optional.of("vendor=x"))
                .withCloudEvent(Optional.of("{\"type\":\"com.amazonaws.ObjectCreated:Copy\"}"));
            QueuedEntry e = q.append(new EventMetadata(TargetKind.NOTIFY, "photos", "cat.jpg", "s3:ObjectCreated:Copy", ""),
                "{}".getBytes(StandardCharsets.UTF_8), Optional.empty(), attributes).get();
            QueuedEntry plain = q.append(new EventMetadata(TargetKind.NOTIFY, "photos", "dog.jpg", "s3:ObjectCreated:Put", ""),
                "{}".getBytes(StandardCharsets.UTF_8)).get();

            assertThat(run("queue", "show", dir.toString(), String.valueOf(e.seq()))).isZero();
            assertThat(out.toString()).contains("replays:      2").contains("subject:      events.photos")
                .contains("traceparent:  00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                .contains("tracestate:   vendor=x")
                .contains("cloudevent:   {\"type\":\"com.amazonaws.ObjectCreated:Copy\"}");

            out.getBuffer().setLength(0);
            assertThat(run("queue", "show", dir.toString(), String.valueOf(plain.seq()))).isZero();
            assertThat(out.toString()).doesNotContain("replays:").doesNotContain("subject:").doesNotContain("cloudevent:");
        }
    }

    @Test
    void statsWorksWhileTheQueueIsHeldOpen() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(100))) {
            q.append(new EventMetadata(TargetKind.AUDIT, "b", "o", "e", ""), new byte[10]).get();
            assertThat(run("queue", "stats", dir.toString())).isZero();
            assertThat(out.toString()).contains("live entries:    1");
        }
    }

    @Test
    void showOfAnUnknownIdIsAnError() {
        SegmentedQueue.open(dir, QueueOptions.withLimit(100)).close();
        assertThat(run("queue", "show", dir.toString(), "42")).isEqualTo(ExitCode.FAILURE);
        assertThat(err.toString()).contains("no live entry 42");
    }

    @Test
    void missingDirectoryIsAClearError() {
        assertThat(run("queue", "stats", dir.resolve("nope").toString())).isEqualTo(ExitCode.FAILURE);
        assertThat(err.toString()).contains("cannot read queue").contains("not a jetsink queue directory");
    }
}
