package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
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
        sortsAsAStableSort(raw, 0);
    }

    /** Keys that share a prefix, of any length, then tie and differ by length past it. */
    @Property(tries = 300)
    void sortsKeysThatShareAPrefix(@ForAll @Size(max = 200) List<@Size(max = 24) List<Byte>> raw,
                                   @ForAll @IntRange(max = 30) int sharedPrefix) {
        sortsAsAStableSort(raw, sharedPrefix);
    }

    private static void sortsAsAStableSort(List<List<Byte>> raw, int sharedPrefix) {
        byte[][] keys = new byte[raw.size() + 3][];
        keys[0] = new byte[] {9};
        keys[1] = new byte[] {9};
        keys[2] = new byte[] {9};
        for (int i = 0; i < raw.size(); i++) {
            byte[] k = new byte[sharedPrefix + raw.get(i).size()];
            Arrays.fill(k, 0, sharedPrefix, (byte) 0x15);
            for (int j = 0; j < raw.get(i).size(); j++) {
                // Mostly zeros and a few values, so that keys tie on their padded prefixes
                // (past a shared prefix, nearly all zeros: they tie over whole windows).
                byte b = raw.get(i).get(j);
                k[sharedPrefix + j] = (byte) (sharedPrefix == 0 ? (b % 3 == 0 ? 0 : b % 4) : (b % 5 == 0 ? 1 : 0));
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
