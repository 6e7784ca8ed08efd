package io.strata.bench.memory;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The memory scenario's pairs: distinct keys of the width asked, outside the system keys, reproducible values. */
class PairDataTest {
    @Test
    void sixteenByteKeysAreDistinctAndBelowTheSystemKeys() {
        PairData data = new PairData(16, 100);
        Set<String> seen = new HashSet<>();
        for (long i = 0; i < 20_000; i++) {
            byte[] k = data.key(i);
            assertThat(k).hasSize(16);
            assertThat(k[0] & 0xFF).isLessThan(0x80);
            seen.add(Arrays.toString(k));
        }
        assertThat(seen).hasSize(20_000);
    }

    @Test
    void shortKeysAreDistinctOverTheirWholeRange() {
        for (int width = 1; width <= 2; width++) {
            PairData data = new PairData(width, 0);
            long max = PairData.maxPairs(width);
            assertThat(max).isEqualTo(1L << (8 * width - 1));
            Set<String> seen = new HashSet<>();
            for (long i = 0; i < max; i++) {
                seen.add(Arrays.toString(data.key(i)));
            }
            assertThat(seen).as("width " + width).hasSize((int) max);
            assertThatThrownBy(() -> data.key(max)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(PairData.maxPairs(7)).isEqualTo(1L << 55);
        assertThat(PairData.maxPairs(8)).isEqualTo(Long.MAX_VALUE);
        assertThat(PairData.maxPairs(100)).isEqualTo(Long.MAX_VALUE);
        assertThat(new PairData(8, 0).key(Long.MAX_VALUE - 1)).hasSize(8);
    }

    @Test
    void keysLookRandomInIndexOrder() {
        PairData data = new PairData(16, 0);
        int ascending = 0;
        for (long i = 0; i < 1_000; i++) {
            if (Arrays.compareUnsigned(data.key(i), data.key(i + 1)) < 0) {
                ascending++;
            }
        }
        assertThat(ascending).isBetween(400, 600);
    }

    @Test
    void valuesAreFreshReproducibleArrays() {
        PairData data = new PairData(16, 100);
        byte[] v = data.value(7);
        assertThat(v).hasSize(100).isEqualTo(data.value(7)).isNotSameAs(data.value(7)).isNotEqualTo(data.value(8));
        assertThat(data.key(7)).isEqualTo(data.key(7)).isNotSameAs(data.key(7));
        assertThat(new PairData(16, 0).value(3)).isEmpty();
    }
}
