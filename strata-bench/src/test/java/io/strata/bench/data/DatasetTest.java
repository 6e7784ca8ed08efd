package io.strata.bench.data;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetTest {
    @Test
    void keysAreSixteenBytesInIndexOrder() {
        assertThat(new String(Dataset.formatKey(42), StandardCharsets.US_ASCII)).isEqualTo("key0000000000042");
        Dataset d = new Dataset(1_000, 100, 1);
        for (int i = 1; i < d.size(); i++) {
            assertThat(d.key(i)).hasSize(Dataset.KEY_BYTES);
            assertThat(Arrays.compareUnsigned(d.key(i - 1), d.key(i))).isNegative();
        }
        assertThat(d.value(7)).hasSize(100);
    }

    @Test
    void keyStreamsStayInRange() {
        for (String distribution : new String[] {"uniform", "zipf", "sequential"}) {
            KeyStream s = KeyStream.of(distribution, 1_000, 3);
            for (int i = 0; i < 10_000; i++) {
                assertThat(s.next()).isBetween(0, 999);
            }
        }
        assertThatThrownBy(() -> KeyStream.of("gaussian", 10, 1)).hasMessageContaining("unknown distribution");
    }
}
