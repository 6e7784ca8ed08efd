package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link KeyOrder} sorts as a stable sort by unsigned key order does, whatever the keys' lengths and zero bytes. */
class KeyOrderTest {
    @Property(tries = 300)
    void sortsAsAStableSortOfTheKeys(@ForAll @Size(max = 300) List<@Size(max = 20) List<Byte>> raw) {
        byte[][] keys = new byte[raw.size() + 3][];
        keys[0] = new byte[] {9};
        keys[1] = new byte[] {9};
        keys[2] = new byte[] {9};
        for (int i = 0; i < raw.size(); i++) {
            byte[] k = new byte[raw.get(i).size()];
            for (int j = 0; j < k.length; j++) {
                // Mostly zeros and a few values, so that keys tie on their padded prefixes.
                k[j] = (byte) (raw.get(i).get(j) % 3 == 0 ? 0 : raw.get(i).get(j) % 4);
            }
            keys[i + 3] = k;
        }
        int from = 3;
        int to = keys.length;
        int[] sorted = new KeyOrder().sort(keys, from, to);
        Integer[] expected = IntStream.range(from, to).boxed().toArray(Integer[]::new);
        Arrays.sort(expected, Comparator.comparing((Integer i) -> keys[i], ByteKeys.COMPARATOR)); // stable
        assertThat(Arrays.stream(sorted).boxed().toArray(Integer[]::new)).containsExactly(expected);
    }
}
