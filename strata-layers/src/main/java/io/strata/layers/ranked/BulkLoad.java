package io.strata.layers.ranked;

import com.apple.foundationdb.Transaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Fills an empty ranked set with many elements in one pass and no reads: the elements are
 * sorted, level 0 gets a key per element, and each level {@code k >= 1} gets a key per tower
 * of height {@code >= k} (and its head) whose count is the number of elements from it up to
 * the next such tower, exactly the keys and counts a sequence of {@code add}s would leave.
 *
 * <p>Concurrency: nothing is read, so nothing conflicts with concurrent readers or writers of
 * the set; the caller must know that the set is empty and that no other transaction changes
 * it concurrently (a set under a subspace this transaction just allocated).
 */
final class BulkLoad {
    private final RankedSetLayout layout;
    private final TowerHeights heights;

    BulkLoad(RankedSetLayout layout, TowerHeights heights) {
        this.layout = layout;
        this.heights = heights;
    }

    void load(Transaction tr, Collection<byte[]> elements) {
        for (byte[][] kv : writes(elements)) {
            tr.set(kv[0], kv[1]);
        }
    }

    /**
     * The keys and values {@link #load} writes, as {key, value} pairs: every one a blind set,
     * independent of the others, so a caller may spread them over transactions in any grouping
     * as long as nothing reads the set before the last has committed.
     */
    List<byte[][]> writes(Collection<byte[]> elements) {
        List<byte[][]> out = new ArrayList<>(elements.size() * 2);
        List<byte[]> sorted = new ArrayList<>(elements.size());
        for (byte[] e : elements) {
            sorted.add(layout.checkElement(e));
        }
        sorted.sort(Arrays::compareUnsigned);
        for (int i = 1; i < sorted.size(); i++) {
            if (Arrays.equals(sorted.get(i - 1), sorted.get(i))) {
                throw new IllegalArgumentException("duplicate element in a bulk load");
            }
        }
        int[] height = new int[sorted.size()];
        for (int i = 0; i < sorted.size(); i++) {
            byte[] e = sorted.get(i);
            out.add(new byte[][] {layout.key(0, e), RankedSetLayout.EMPTY});
            // The empty element is every level's head, never a tower.
            height[i] = e.length == 0 ? 0 : heights.of(e);
        }
        for (int k = 1; k < layout.levels; k++) {
            byte[] owner = RankedSetLayout.EMPTY;
            long count = 0;
            for (int i = 0; i < sorted.size(); i++) {
                if (height[i] >= k) {
                    writeCount(out, k, owner, count);
                    owner = sorted.get(i);
                    count = 0;
                }
                count++;
            }
            writeCount(out, k, owner, count);
        }
        return out;
    }

    /** A head with nothing before the first tower stays absent (absent counts 0); a tower always counts itself. */
    private void writeCount(List<byte[][]> out, int level, byte[] owner, long count) {
        if (count > 0) {
            out.add(new byte[][] {layout.key(level, owner), RankedSetLayout.encodeCount(count)});
        }
    }
}
