package io.strata.layers.interning;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DistinctStringsTest {

    /** Against a LinkedHashMap: first-seen order, every position mapped to its equal string. */
    @Property(tries = 300)
    void mergesDuplicatesInFirstSeenOrder(@ForAll @Size(max = 300) List<@IntRange(min = 0, max = 40) Integer> picks,
                                          @ForAll @IntRange(min = 0, max = 12) int length) {
        byte[][] batch = new byte[picks.size()][];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = string(picks.get(i), length); // a fresh array each time: equal, not identical
        }
        Map<ByteBuffer, Integer> model = new LinkedHashMap<>();
        for (byte[] s : batch) {
            model.putIfAbsent(ByteBuffer.wrap(s), model.size());
        }

        DistinctStrings d = DistinctStrings.of(batch);

        List<ByteBuffer> expected = new ArrayList<>(model.keySet());
        assertThat(d.strings.length).isEqualTo(expected.size());
        for (int j = 0; j < d.strings.length; j++) {
            assertThat(ByteBuffer.wrap(d.strings[j])).isEqualTo(expected.get(j));
        }
        for (int i = 0; i < batch.length; i++) {
            assertThat(d.indexOf[i]).isEqualTo(model.get(ByteBuffer.wrap(batch[i])));
        }
    }

    @Test
    void expandSpreadsIdsBackToEveryPosition() {
        byte[][] batch = {string(1, 3), string(2, 3), string(1, 3), string(3, 0), string(2, 3)};
        DistinctStrings d = DistinctStrings.of(batch);

        assertThat(d.strings.length).isEqualTo(3);
        assertThat(d.expand(new long[] {10, 20, 30})).containsExactly(10, 20, 10, 30, 20);
    }

    @Test
    void aBatchWithoutDuplicatesIsUsedAsItIs() {
        byte[][] batch = {string(1, 9), string(2, 9), string(3, 9)};

        assertThat(DistinctStrings.of(batch).strings).isSameAs(batch);
    }

    /** Strings that share a long prefix and differ only at the end, as URIs do. */
    private static byte[] string(int n, int length) {
        byte[] s = new byte[length + 4];
        for (int i = 0; i < length; i++) {
            s[i] = 'a';
        }
        ByteBuffer.wrap(s, length, 4).putInt(n);
        return s;
    }
}
