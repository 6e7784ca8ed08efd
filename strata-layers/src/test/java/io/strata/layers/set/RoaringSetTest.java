package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link RoaringSet} on the engine: the key layout, unsigned order at the edges, batches and clear. */
class RoaringSetTest {
    private static final long[] EDGES = {0, 1, 65535, 65536, 65537, (1L << 32) - 1, 1L << 32, Long.MAX_VALUE,
            Long.MIN_VALUE, Long.MIN_VALUE + 65535, -65536, -2, -1};

    private final Database db = Strata.inMemory();
    private final RoaringSet set = new RoaringSet(new Subspace(Tuple.from("s")));

    @AfterEach
    void close() {
        db.close();
    }

    private List<Long> members(long from) {
        try (Transaction tr = db.createTransaction()) {
            return set.members(tr, from).asList().join();
        }
    }

    private long change(Function<Transaction, CompletableFuture<Long>> op) {
        return db.runAsync(op::apply).join();
    }

    private List<KeyValue> stored() {
        return db.run(tr -> tr.getRange(set.subspace().range()).asList().join());
    }

    @Test
    void keyLayoutIsTheDocumentedOne() {
        assertThat(set.add(db, 0x0102_0304_0506_0708L).join()).isTrue();
        assertThat(set.add(db, 0x0102_0304_0506_0709L).join()).isTrue();
        List<KeyValue> kvs = stored();
        byte[] prefix = set.subspace().getKey();
        HexFormat hex = HexFormat.of();
        assertThat(kvs).hasSize(2);
        assertThat(hex.formatHex(kvs.get(0).getKey())).isEqualTo(hex.formatHex(prefix) + "14");
        assertThat(kvs.get(0).getValue()).containsExactly(2, 0, 0, 0, 0, 0, 0, 0);
        assertThat(hex.formatHex(kvs.get(1).getKey())).isEqualTo(hex.formatHex(prefix) + "1501" + "010203040506");
        assertThat(hex.formatHex(kvs.get(1).getValue())).isEqualTo("01" + "0807" + "0907");
    }

    @Test
    void edgeMembersIterateInUnsignedOrder() {
        for (int i = EDGES.length - 1; i >= 0; i--) {
            assertThat(set.add(db, EDGES[i]).join()).as("add %s", Long.toUnsignedString(EDGES[i])).isTrue();
        }
        assertThat(set.add(db, -1L).join()).isFalse();
        assertThat(members(0)).containsExactly(box(EDGES));
        assertThat(set.cardinality(db).join()).isEqualTo(EDGES.length);
        for (long m : EDGES) {
            assertThat(set.contains(db, m).join()).isTrue();
            assertThat(set.contains(db, m ^ 0x100).join()).isFalse();
        }
        assertThat(set.toBitmap(db).join().toArray()).containsExactly(EDGES);
        assertThat(members(Long.MIN_VALUE + 1))
                .containsExactly(Long.MIN_VALUE + 65535, -65536L, -2L, -1L);
        assertThat(members(65536)).first().isEqualTo(65536L);
    }

    @Test
    void removingTheLastMemberOfAContainerDeletesItsKey() {
        set.add(db, 70_000).join();
        set.add(db, 5).join();
        assertThat(set.remove(db, 70_000).join()).isTrue();
        assertThat(set.remove(db, 70_000).join()).isFalse();
        assertThat(set.remove(db, 1L << 40).join()).isFalse();
        assertThat(stored()).hasSize(2); // the counter and the container of 5
        assertThat(set.remove(db, 5).join()).isTrue();
        assertThat(stored()).singleElement().satisfies(kv -> assertThat(kv.getValue()).containsExactly(new byte[8]));
        assertThat(set.cardinality(db).join()).isZero();
    }

    @Test
    void batchesCountWhatChangedAndTouchEachContainerOnce() {
        long[] batch = {3, -1, 3, 65536 * 2 + 1, 65536 * 2, -1, 7};
        assertThat(change(tr -> set.addAll(tr, batch))).isEqualTo(5);
        assertThat(change(tr -> set.addAll(tr, Roaring64Bitmap.bitmapOf(3, 4, -1)))).isEqualTo(1);
        assertThat(set.cardinality(db).join()).isEqualTo(6);
        assertThat(change(tr -> set.removeAll(tr, 4, 4, 100, -1, 65536 * 2))).isEqualTo(3);
        assertThat(members(0)).containsExactly(3L, 7L, 65536L * 2 + 1);
        assertThat(change(tr -> set.removeAll(tr, Roaring64Bitmap.bitmapOf(3, 7, 65536 * 2 + 1)))).isEqualTo(3);
        assertThat(stored()).hasSize(1);
    }

    @Test
    void containersGrowFromArrayToBitmapToRunAndBack() {
        long base = 5L << 16;
        long[] dense = new long[65536];
        for (int i = 0; i < dense.length; i++) {
            dense[i] = base + i;
        }
        assertThat(set.addAll(db, dense, 10_000).join()).isEqualTo(65536);
        assertThat(stored().get(1).getValue()).hasSize(5); // one run
        long[] everyOther = new long[32768];
        for (int i = 0; i < everyOther.length; i++) {
            everyOther[i] = base + 2 * i;
        }
        assertThat(change(tr -> set.removeAll(tr, everyOther))).isEqualTo(32768);
        assertThat(stored().get(1).getValue()).hasSize(8193); // a bitmap
        assertThat(set.cardinality(db).join()).isEqualTo(32768);
        assertThat(set.contains(db, base + 1).join()).isTrue();
        assertThat(set.contains(db, base + 2).join()).isFalse();
    }

    @Test
    void iterationStreamsAndCanStopEarly() {
        long[] members = new long[3000];
        for (int i = 0; i < members.length; i++) {
            members[i] = (long) i << 20; // one container each
        }
        set.addAll(db, members, 1000).join();
        List<Long> firstFive = new ArrayList<>();
        try (Transaction tr = db.createTransaction()) {
            AsyncIterator<Long> it = set.members(tr).iterator();
            while (firstFive.size() < 5 && it.hasNext()) {
                firstFive.add(it.next());
            }
            it.cancel();
        }
        assertThat(firstFive).containsExactly(0L, 1L << 20, 2L << 20, 3L << 20, 4L << 20);
        assertThat(members(0)).hasSize(3000);
    }

    /** The read conflict on the container is what keeps two writers of one container from losing a member. */
    @Test
    void concurrentChangesToOneContainerConflictAndTheRetryKeepsBoth() {
        Transaction first = db.createTransaction();
        Transaction second = db.createTransaction();
        assertThat(set.add(first, 10).join()).isTrue();
        assertThat(set.add(second, 11).join()).isTrue(); // same container, read before first commits
        first.commit().join();
        assertThatThrownBy(() -> second.commit().join()).cause().isInstanceOf(FDBException.class)
                .satisfies(e -> assertThat(((FDBException) e).getCode()).isEqualTo(1020));
        Transaction retry = second.onError(new FDBException("not_committed", 1020)).join();
        assertThat(set.add(retry, 11).join()).isTrue();
        retry.commit().join();
        first.close();
        retry.close();
        assertThat(members(0)).containsExactly(10L, 11L);
        assertThat(set.cardinality(db).join()).isEqualTo(2);
    }

    /** The counter is changed by ADD only, so writers of different containers never conflict on it. */
    @Test
    void changesToDifferentContainersDoNotConflict() {
        set.add(db, 1L << 20).join();
        Transaction first = db.createTransaction();
        Transaction second = db.createTransaction();
        assertThat(set.add(first, 5).join()).isTrue();
        assertThat(set.remove(second, 1L << 20).join()).isTrue();
        assertThat(set.add(second, -1).join()).isTrue();
        first.commit().join();
        second.commit().join();
        first.close();
        second.close();
        assertThat(members(0)).containsExactly(5L, -1L);
        assertThat(set.cardinality(db).join()).isEqualTo(2);
    }

    @Test
    void clearRemovesEverything() {
        set.addAll(db, new long[] {1, 2, 1L << 50}, 2).join();
        set.clear(db).join();
        assertThat(stored()).isEmpty();
        assertThat(set.cardinality(db).join()).isZero();
        assertThat(set.toBitmap(db).join().isEmpty()).isTrue();
    }

    private static Long[] box(long[] values) {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }
}
