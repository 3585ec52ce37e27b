package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FailureMarksTest {
    @TempDir
    Path dir;

    @Test
    void marksThatCanStillMatterSurviveAReopenAndTheOthersAreDropped() throws Exception {
        Map<String, FailureMarks.Mark> none = new HashMap<>();
        FailureMarks marks = FailureMarks.open(dir, 1, none);
        assertThat(none).isEmpty();
        marks.add("photos/a.jpg", new FailureMarks.Mark(10, "follows a failed event of the same object (x)"));
        marks.add("photos/b.jpg", new FailureMarks.Mark(40, "follows a failed event of the same object (y)"));
        marks.add("photos/a.jpg", new FailureMarks.Mark(30, "follows a failed event of the same object (z)"));
        // a crash cut the last write short
        Files.writeString(dir.resolve(FailureMarks.FILE), "{\"key\":\"photos/c", StandardCharsets.UTF_8,
            StandardOpenOption.APPEND);

        Map<String, FailureMarks.Mark> kept = new HashMap<>();
        FailureMarks.open(dir, 20, kept);
        assertThat(kept).containsOnly(
            Map.entry("photos/a.jpg", new FailureMarks.Mark(30, "follows a failed event of the same object (z)")),
            Map.entry("photos/b.jpg", new FailureMarks.Mark(40, "follows a failed event of the same object (y)")));

        Map<String, FailureMarks.Mark> later = new HashMap<>();
        FailureMarks.open(dir, 35, later);
        assertThat(later).as("every entry up to a's bound has left the queue").containsOnlyKeys("photos/b.jpg");
        assertThat(Files.readAllLines(dir.resolve(FailureMarks.FILE))).as("rewritten with what is kept").hasSize(1);
    }
}
