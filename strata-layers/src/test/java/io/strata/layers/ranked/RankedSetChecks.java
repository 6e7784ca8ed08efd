package io.strata.layers.ranked;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test support: the structure invariant read straight from the keys, independently of the
 * layer's lookups, and the model's order.
 */
final class RankedSetChecks {
    /** FoundationDB's key order, which is the set's order. */
    static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    private RankedSetChecks() {
    }

    static TreeSet<byte[]> model() {
        return new TreeSet<>(ORDER);
    }

    /**
     * Level 0 holds exactly {@code expected}; level {@code k >= 1} holds exactly the elements of
     * height {@code >= k} (plus possibly the head), and every count is the number of level-0
     * elements from its key up to the next key of its level. Nothing else is stored.
     */
    static void assertStructure(ReadTransaction tr, RankedSet set, TreeSet<byte[]> expected) {
        RankedSetLayout layout = new RankedSetLayout(set.subspace(), set.levels());
        TowerHeights heights = new TowerHeights(set.fanoutBits(), set.levels());
        List<byte[]> elements = new ArrayList<>(expected);
        assertThat(keysOf(tr, layout, 0)).as("level 0").containsExactlyElementsOf(elements);
        int stored = elements.size();
        for (int k = 1; k < set.levels(); k++) {
            List<KeyValue> kvs = tr.getRange(layout.levelBegin(k), layout.levelEnd(k)).asList().join();
            stored += kvs.size();
            List<byte[]> towers = new ArrayList<>();
            List<Long> counts = new ArrayList<>();
            boolean head = false;
            for (KeyValue kv : kvs) {
                byte[] e = layout.element(k, kv.getKey());
                if (e.length == 0) {
                    head = true;
                } else {
                    towers.add(e);
                }
                counts.add(RankedSetLayout.decodeCount(kv.getValue()));
            }
            int level = k;
            List<byte[]> expectedTowers = elements.stream().filter(e -> e.length > 0 && heights.of(e) >= level).toList();
            assertThat(towers).as("towers of level %d", k).containsExactlyElementsOf(expectedTowers);
            List<Long> expectedCounts = new ArrayList<>();
            List<byte[]> starts = new ArrayList<>();
            if (head) {
                starts.add(new byte[0]);
            }
            starts.addAll(towers);
            for (int i = 0; i < starts.size(); i++) {
                byte[] from = starts.get(i);
                byte[] to = i + 1 < starts.size() ? starts.get(i + 1) : null;
                expectedCounts.add(elements.stream()
                        .filter(e -> ORDER.compare(e, from) >= 0 && (to == null || ORDER.compare(e, to) < 0)).count());
            }
            if (!head && !elements.isEmpty() && (towers.isEmpty() || ORDER.compare(elements.get(0), towers.get(0)) < 0)) {
                throw new AssertionError("level " + k + " has elements before its first tower but no head");
            }
            assertThat(counts).as("counts of level %d", k).containsExactlyElementsOf(expectedCounts);
        }
        List<KeyValue> all = tr.getRange(set.subspace().range()).asList().join();
        assertThat(all).as("every key belongs to a level").hasSize(stored);
    }

    private static List<byte[]> keysOf(ReadTransaction tr, RankedSetLayout layout, int level) {
        return tr.getRange(layout.levelBegin(level), layout.levelEnd(level)).asList().join().stream()
                .map(kv -> layout.element(level, kv.getKey())).toList();
    }

    /** The number of model elements below {@code key}. */
    static long rankIn(TreeSet<byte[]> model, byte[] key) {
        return model.headSet(key, false).size();
    }

    static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
