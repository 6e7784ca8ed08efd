package io.strata.layers.ranked;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;

import static io.strata.layers.ranked.RankedSetChecks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link RankedSet} on the engine: the key layout, the edges (empty set, empty element, first and last rank, sizes), scans. */
class RankedSetTest {
    private final Database db = Strata.inMemory();
    private final RankedSet set = new RankedSet(new Subspace(Tuple.from("r")));

    @AfterEach
    void close() {
        db.close();
    }

    private boolean add(RankedSet s, byte[] e) {
        return db.runAsync(tr -> s.add(tr, e)).join();
    }

    private boolean remove(RankedSet s, byte[] e) {
        return db.runAsync(tr -> s.remove(tr, e)).join();
    }

    private <T> T read(java.util.function.Function<Transaction, T> f) {
        try (Transaction tr = db.createTransaction()) {
            return f.apply(tr);
        }
    }

    private List<KeyValue> stored(RankedSet s) {
        return read(tr -> tr.getRange(s.subspace().range()).asList().join());
    }

    private static List<String> strings(List<byte[]> elements) {
        return elements.stream().map(e -> new String(e, java.nio.charset.StandardCharsets.ISO_8859_1)).toList();
    }

    /** The first {@code n} strings {@code prefix + i} whose tower in {@code s} has exactly height {@code h}. */
    static List<byte[]> withHeight(RankedSet s, int h, String prefix, int n) {
        TowerHeights heights = new TowerHeights(s.fanoutBits(), s.levels());
        List<byte[]> found = new ArrayList<>();
        for (int i = 0; found.size() < n; i++) {
            byte[] e = bytes(prefix + i);
            if (heights.of(e) == h) {
                found.add(e);
            }
        }
        return found;
    }

    @Test
    void emptySetAnswersNothing() {
        read(tr -> {
            assertThat(set.size(tr).join()).isZero();
            assertThat(set.getNth(tr, 0).join()).isEmpty();
            assertThat(set.rank(tr, bytes("a")).join()).isEmpty();
            assertThat(set.rankOf(tr, bytes("a")).join()).isZero();
            assertThat(set.count(tr, new byte[0], null).join()).isZero();
            assertThat(set.contains(tr, bytes("a")).join()).isFalse();
            assertThat(set.scan(tr, new byte[0], null, 0, false).asList().join()).isEmpty();
            assertThat(set.scanFromRank(tr, 0, 0, true).asList().join()).isEmpty();
            return null;
        });
        assertThat(remove(set, bytes("a"))).isFalse();
        assertThat(stored(set)).as("a removal of an absent element writes nothing").isEmpty();
    }

    @Test
    void keyLayoutIsTheDocumentedOne() {
        RankedSet small = new RankedSet(new Subspace(Tuple.from("layout")), 4, 3);
        byte[] flat = withHeight(small, 0, "a", 1).get(0);
        byte[] tower = withHeight(small, 1, "b", 1).get(0);
        assertThat(add(small, tower)).isTrue();
        assertThat(add(small, flat)).isTrue();
        HexFormat hex = HexFormat.of();
        String p = hex.formatHex(small.subspace().getKey());
        List<String> keys = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (KeyValue kv : stored(small)) {
            keys.add(hex.formatHex(kv.getKey()));
            values.add(hex.formatHex(kv.getValue()));
        }
        assertThat(keys).containsExactly(
                p + "14" + hex.formatHex(flat),
                p + "14" + hex.formatHex(tower),
                p + "1501",                        // head of level 1: counts flat
                p + "1501" + hex.formatHex(tower), // tower of height 1: counts itself
                p + "1502");                       // head of level 2: counts both
        assertThat(values).containsExactly("", "", "0100000000000000", "0100000000000000", "0200000000000000");
    }

    @Test
    void duplicatesAreAddedOnce() {
        assertThat(add(set, bytes("x"))).isTrue();
        assertThat(add(set, bytes("x"))).isFalse();
        assertThat(remove(set, bytes("y"))).isFalse();
        TreeSet<byte[]> model = RankedSetChecks.model();
        model.add(bytes("x"));
        read(tr -> {
            assertThat(set.size(tr).join()).isEqualTo(1);
            RankedSetChecks.assertStructure(tr, set, model);
            return null;
        });
        assertThat(remove(set, bytes("x"))).isTrue();
        assertThat(remove(set, bytes("x"))).isFalse();
        read(tr -> {
            RankedSetChecks.assertStructure(tr, set, RankedSetChecks.model());
            return null;
        });
    }

    @Test
    void firstAndLastRanks() {
        RankedSet small = new RankedSet(new Subspace(Tuple.from("edges")), 2, 4);
        TreeSet<byte[]> model = RankedSetChecks.model();
        List<byte[]> shuffled = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            shuffled.add(bytes(String.format("k%05d", i * 7)));
        }
        Collections.shuffle(shuffled, new Random(1));
        for (byte[] e : shuffled) {
            assertThat(add(small, e)).isTrue();
            model.add(e);
        }
        read(tr -> {
            RankedSetChecks.assertStructure(tr, small, model);
            assertThat(small.size(tr).join()).isEqualTo(300);
            assertThat(small.getNth(tr, 0).join()).contains(model.first());
            assertThat(small.getNth(tr, 299).join()).contains(model.last());
            assertThat(small.getNth(tr, 300).join()).isEmpty();
            assertThat(small.rank(tr, model.first()).join()).isEqualTo(OptionalLong.of(0));
            assertThat(small.rank(tr, model.last()).join()).isEqualTo(OptionalLong.of(299));
            assertThat(small.rankOf(tr, new byte[0]).join()).isZero();
            assertThat(small.rankOf(tr, bytes("l")).join()).isEqualTo(300);
            assertThat(small.rank(tr, bytes("k00001")).join()).isEmpty();
            int i = 0;
            for (byte[] e : model) {
                assertThat(small.getNth(tr, i).join()).as("getNth(%d)", i).contains(e);
                assertThat(small.rank(tr, e).join()).isEqualTo(OptionalLong.of(i));
                i++;
            }
            assertThatThrownBy(() -> small.getNth(tr, -1)).isInstanceOf(IllegalArgumentException.class);
            return null;
        });
    }

    @Test
    void theEmptyElementIsTheHeadAndRanksFirst() {
        RankedSet small = new RankedSet(new Subspace(Tuple.from("head")), 1, 4);
        TreeSet<byte[]> model = RankedSetChecks.model();
        for (String s : List.of("m", "", "a", "z")) {
            assertThat(add(small, bytes(s))).isTrue();
            model.add(bytes(s));
        }
        assertThat(add(small, new byte[0])).isFalse();
        read(tr -> {
            RankedSetChecks.assertStructure(tr, small, model);
            assertThat(small.getNth(tr, 0).join()).contains(new byte[0]);
            assertThat(small.rank(tr, new byte[0]).join()).isEqualTo(OptionalLong.of(0));
            assertThat(small.rank(tr, bytes("a")).join()).isEqualTo(OptionalLong.of(1));
            assertThat(small.count(tr, new byte[0], bytes("b")).join()).isEqualTo(2);
            return null;
        });
        assertThat(remove(small, new byte[0])).isTrue();
        model.remove(new byte[0]);
        read(tr -> {
            RankedSetChecks.assertStructure(tr, small, model);
            assertThat(small.getNth(tr, 0).join()).contains(bytes("a"));
            return null;
        });
    }

    @Test
    void countsAndRanksOfKeysThatAreNotElements() {
        for (String s : List.of("b", "d", "f")) {
            add(set, bytes(s));
        }
        read(tr -> {
            assertThat(set.rankOf(tr, bytes("a")).join()).isZero();
            assertThat(set.rankOf(tr, bytes("c")).join()).isEqualTo(1);
            assertThat(set.rankOf(tr, bytes("d")).join()).isEqualTo(1);
            assertThat(set.rankOf(tr, bytes("d\0")).join()).isEqualTo(2);
            assertThat(set.count(tr, bytes("b"), bytes("f")).join()).isEqualTo(2);
            assertThat(set.count(tr, bytes("c"), null).join()).isEqualTo(2);
            assertThat(set.count(tr, bytes("f"), bytes("b")).join()).isZero();
            assertThat(set.count(tr, bytes("d"), bytes("d")).join()).isZero();
            return null;
        });
    }

    @Test
    void scansFromKeysAndRanksBothWays() {
        for (String s : List.of("e", "a", "c", "d", "b")) {
            add(set, bytes(s));
        }
        read(tr -> {
            assertThat(strings(set.scan(tr, bytes("b"), bytes("e"), 0, false).asList().join())).containsExactly("b", "c", "d");
            assertThat(strings(set.scan(tr, bytes("b"), null, 2, true).asList().join())).containsExactly("e", "d");
            assertThat(strings(set.scanFromRank(tr, 1, 0, false).asList().join())).containsExactly("b", "c", "d", "e");
            assertThat(strings(set.scanFromRank(tr, 3, 2, false).asList().join())).containsExactly("d", "e");
            assertThat(strings(set.scanFromRank(tr, 2, 0, true).asList().join())).containsExactly("c", "b", "a");
            assertThat(strings(set.scanFromRank(tr, 4, 1, true).asList().join())).containsExactly("e");
            assertThat(set.scanFromRank(tr, 5, 0, false).asList().join()).isEmpty();
            assertThat(set.scanFromRank(tr, 5, 0, true).asList().join()).isEmpty();
            List<String> iterated = new ArrayList<>();
            AsyncIterator<byte[]> it = set.scanFromRank(tr, 3, 0, false).iterator();
            while (it.hasNext()) {
                iterated.add(new String(it.next(), java.nio.charset.StandardCharsets.ISO_8859_1));
            }
            assertThat(iterated).containsExactly("d", "e");
            assertThatThrownBy(() -> set.scanFromRank(tr, -1, 0, false)).isInstanceOf(IllegalArgumentException.class);
            return null;
        });
    }

    @Test
    void elementsUpToTheKeyLimitAreAcceptedAndLongerOnesRejected() {
        int prefix = set.subspace().getKey().length;
        assertThat(set.maxElementBytes()).isEqualTo(9_997 - prefix);
        byte[] longest = new byte[set.maxElementBytes()];
        Arrays.fill(longest, (byte) 0xFF);
        byte[] tooLong = new byte[set.maxElementBytes() + 1];
        assertThat(add(set, longest)).isTrue();
        assertThat(add(set, bytes("a"))).isTrue();
        read(tr -> {
            assertThat(set.rank(tr, longest).join()).isEqualTo(OptionalLong.of(1));
            assertThat(set.getNth(tr, 1).join()).contains(longest);
            byte[] afterLongest = Arrays.copyOf(longest, longest.length + 1);
            assertThat(set.rankOf(tr, afterLongest).join()).isEqualTo(2);
            assertThat(set.count(tr, bytes("a"), afterLongest).join()).isEqualTo(2);
            assertThat(set.scanFromRank(tr, 1, 0, true).asList().join()).hasSize(2);
            assertThatThrownBy(() -> set.rankOf(tr, new byte[set.maxElementBytes() + 2]))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> set.contains(tr, tooLong)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> set.rank(tr, tooLong)).isInstanceOf(IllegalArgumentException.class);
            return null;
        });
        try (Transaction tr = db.createTransaction()) {
            // Refused before anything is read or written: the call itself throws.
            assertThatThrownBy(() -> set.add(tr, tooLong)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("limit of " + set.maxElementBytes());
            assertThatThrownBy(() -> set.remove(tr, tooLong)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> set.add(tr, null)).isInstanceOf(NullPointerException.class);
        }
        assertThat(remove(set, longest)).isTrue();
    }

    @Test
    void aPrefixTooLongForAnyElementIsRejected() {
        assertThatThrownBy(() -> new RankedSet(new Subspace(new byte[9_998])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RankedSet(new Subspace(Tuple.from("x")), 0, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RankedSet(new Subspace(Tuple.from("x")), 4, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RankedSet(new Subspace(Tuple.from("x")), 8, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new RankedSet(new Subspace(Tuple.from("x")), 8, 9).levels()).isEqualTo(9);
    }

    @Test
    void clearRemovesEveryKey() {
        for (String s : List.of("a", "b", "c")) {
            add(set, bytes(s));
        }
        db.run(tr -> {
            set.clear(tr);
            return null;
        });
        assertThat(stored(set)).isEmpty();
        assertThat(add(set, bytes("b"))).isTrue();
        Optional<byte[]> first = read(tr -> set.getNth(tr, 0).join());
        assertThat(first).contains(bytes("b"));
    }
}
