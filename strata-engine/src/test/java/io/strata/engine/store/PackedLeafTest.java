package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PackedLeaf#find} answers as a binary search comparing whole keys does: the entry's
 * index, or the insertion point, for keys present and absent — whatever prefixes the leaf's
 * keys share with each other and with the key sought, and whatever their lengths.
 */
class PackedLeafTest {
    @Property(tries = 500)
    void findsAsAWholeKeyBinarySearch(@ForAll @Size(max = 60) List<@Size(max = 6) List<Byte>> stored,
                                      @ForAll @Size(max = 30) List<@Size(max = 7) List<Byte>> sought,
                                      @ForAll @IntRange(max = 24) int sharedPrefix) {
        byte[] prefix = new byte[sharedPrefix];
        Arrays.fill(prefix, (byte) 0x15);
        TreeSet<byte[]> keys = new TreeSet<>(ByteKeys.COMPARATOR);
        for (List<Byte> k : stored) {
            keys.add(key(prefix, k));
        }
        byte[][] sorted = keys.toArray(byte[][]::new);
        byte[] leaf = leafOf(sorted);

        for (List<Byte> k : sought) {
            byte[] key = key(prefix, k);
            int expected = Arrays.binarySearch(sorted, key, ByteKeys.COMPARATOR);
            assertThat(PackedLeaf.find(leaf, key)).as("find %s", Arrays.toString(key)).isEqualTo(expected);
            int insertion = expected >= 0 ? expected : -expected - 1;
            for (int first = 0; first <= insertion; first++) {
                assertThat(PackedLeaf.find(leaf, first, key)).as("find %s from %d", Arrays.toString(key), first).isEqualTo(expected);
            }
        }
        for (int i = 0; i < sorted.length; i++) {
            assertThat(PackedLeaf.find(leaf, sorted[i])).isEqualTo(i);
            // The same key inside a larger array, as PackedIndex passes a key's bytes.
            byte[] framed = new byte[sorted[i].length + 4];
            Arrays.fill(framed, (byte) 0xff);
            System.arraycopy(sorted[i], 0, framed, 2, sorted[i].length);
            assertThat(PackedLeaf.find(leaf, framed, 2, 2 + sorted[i].length)).isEqualTo(i);
            // From any entry not after the key on, the search answers as over the whole leaf.
            for (int first = 0; first <= i; first++) {
                assertThat(PackedLeaf.find(leaf, first, sorted[i])).isEqualTo(i);
            }
            // Every prefix of a stored key, present or not, falls where a whole-key search puts it.
            for (int cut = 0; cut < sorted[i].length; cut++) {
                byte[] shorter = Arrays.copyOf(sorted[i], cut);
                assertThat(PackedLeaf.find(leaf, shorter)).isEqualTo(Arrays.binarySearch(sorted, shorter, ByteKeys.COMPARATOR));
            }
        }
    }

    /** The prefix, then bytes drawn mostly from 0x00, 0x01 and 0xff, so that keys tie long and differ by length. */
    private static byte[] key(byte[] prefix, List<Byte> tail) {
        byte[] k = Arrays.copyOf(prefix, prefix.length + tail.size());
        for (int j = 0; j < tail.size(); j++) {
            int b = tail.get(j) & 3;
            k[prefix.length + j] = (byte) (b == 3 ? 0xff : b == 2 ? 0x80 : b);
        }
        return k;
    }

    private static byte[] leafOf(byte[][] sorted) {
        long bytes = 0;
        for (byte[] k : sorted) {
            bytes += PackedLeaf.entrySize(k, new byte[] {7}) - 4;
        }
        byte[] leaf = PackedLeaf.allocate(0, sorted.length, bytes);
        for (int i = 0; i < sorted.length; i++) {
            PackedLeaf.put(leaf, i, sorted[i], new byte[] {7});
        }
        return leaf;
    }
}
