package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongMapTest {
    private final LongMap<String> map = new LongMap<>();

    @Test
    void aKeyHoldsItsFirstValueUntilReplacedOrRemoved() {
        assertThat(map.putIfAbsent(7, "a")).isNull();
        assertThat(map.putIfAbsent(7, "b")).as("taken: the value it has").isEqualTo("a");
        assertThat(map.get(7)).isEqualTo("a");
        map.replace(7, "c");
        assertThat(map.get(7)).isEqualTo("c");
        assertThat(map.remove(7)).isEqualTo("c");
        assertThat(map.get(7)).isNull();
        assertThat(map.remove(7)).isNull();
        assertThat(map.size()).isZero();
        assertThatThrownBy(() -> map.replace(7, "d")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> map.get(0)).as("0 marks a free slot").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysOfOneRunAreEachFoundAfterOthersOfItAreRemoved() {
        // ten keys in the first sixteen slots: their probes run into each other; keys that differ
        // only in their high bits, as the hashes it is given may
        long step = 16L << 32;
        for (long k = 1; k <= 10; k++) {
            map.putIfAbsent(k * step, "v" + k);
        }
        map.remove(step);
        map.remove(5 * step);
        map.remove(10 * step);
        for (long k = 1; k <= 10; k++) {
            assertThat(map.get(k * step)).as("key %d", k).isEqualTo(k == 1 || k == 5 || k == 10 ? null : "v" + k);
        }
        assertThat(map.size()).isEqualTo(7);
        assertThat(map.values()).hasSize(7).doesNotContain("v1", "v5", "v10");
    }

    @Test
    void itGrowsAndShrinksAsAHashMapDoesUnderRandomPutsAndRemovals() {
        Map<Long, String> expected = new HashMap<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200_000; i++) {
            long key = 1 + random.nextInt(5_000) * (random.nextBoolean() ? 1L : 1L << 40); // clustered and spread keys
            if (random.nextInt(3) == 0) {
                assertThat(map.remove(key)).isEqualTo(expected.remove(key));
            } else {
                assertThat(map.putIfAbsent(key, "v" + i)).isEqualTo(expected.putIfAbsent(key, "v" + i));
            }
        }
        assertThat(map.size()).isEqualTo(expected.size());
        expected.forEach((k, v) -> assertThat(map.get(k)).isEqualTo(v));
        assertThat(map.values()).containsExactlyInAnyOrderElementsOf(expected.values());
    }
}
