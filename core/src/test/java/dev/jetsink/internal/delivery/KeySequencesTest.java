package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeySequencesTest {
    @TempDir
    Path dir;

    @Test
    void eachObjectsLastSequenceIsKeptAcrossAReopen() {
        KeySequences s = KeySequences.open(dir);
        assertThat(s.last("photos/a.jpg")).isEqualTo(KeySequences.Last.NONE);
        s.settled("photos/a.jpg", 1, 10, "m-10");
        s.settled("photos/a.jpg", 2, 12, "m-12");
        s.settled("photos/b.jpg", 1, 11, "m-11");
        assertThat(s.last("photos/a.jpg")).isEqualTo(new KeySequences.Last(2, 12, s.msgIdHash("m-12")));

        KeySequences again = KeySequences.open(dir); // a restart, without force: the page cache has it
        assertThat(again.last("photos/a.jpg")).isEqualTo(new KeySequences.Last(2, 12, s.msgIdHash("m-12")));
        assertThat(again.last("photos/b.jpg")).isEqualTo(new KeySequences.Last(1, 11, s.msgIdHash("m-11")));
        assertThat(again.last("photos/c.jpg")).isEqualTo(KeySequences.Last.NONE);
    }

    @Test
    void growsPastItsFirstSizeAndKeepsEveryObject() throws Exception {
        KeySequences s = KeySequences.open(dir);
        long firstSize = Files.size(dir.resolve(KeySequences.FILE));
        int objects = 50_000; // past 60 % of the first 65 536 slots
        for (int i = 0; i < objects; i++) {
            s.settled("bucket/object-" + i, i + 1, 1000L + i, "m-" + i);
        }
        assertThat(Files.size(dir.resolve(KeySequences.FILE))).isGreaterThan(firstSize);
        KeySequences again = KeySequences.open(dir);
        for (int i = 0; i < objects; i++) {
            assertThat(again.last("bucket/object-" + i)).as("object " + i).isEqualTo(new KeySequences.Last(i + 1, 1000L + i, s.msgIdHash("m-" + i)));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("no file of the growth left behind").containsExactly(dir.resolve(KeySequences.FILE));
        }
    }

    @Test
    void anUnreadableFileIsSetAsideAndTheSequencesStartAgain() throws Exception {
        Files.writeString(dir.resolve(KeySequences.FILE), "not a table");
        KeySequences s = KeySequences.open(dir);
        assertThat(s.last("photos/a.jpg")).isEqualTo(KeySequences.Last.NONE);
        s.settled("photos/a.jpg", 1, 5, "m-5");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                .anyMatch(n -> n.startsWith(KeySequences.FILE + ".unreadable-"));
        }
        assertThat(KeySequences.open(dir).last("photos/a.jpg").number()).isEqualTo(1);
    }
}
