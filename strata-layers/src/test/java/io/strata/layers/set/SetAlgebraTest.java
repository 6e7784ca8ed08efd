package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.List;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link SetAlgebra}: the named operations, edges of the unsigned range, the store limit and conflicts. */
class SetAlgebraTest {
    private final Database db = Strata.inMemory();
    private final RoaringSet a = new RoaringSet(new Subspace(Tuple.from("a")));
    private final RoaringSet b = new RoaringSet(new Subspace(Tuple.from("b")));
    private final RoaringSet c = new RoaringSet(new Subspace(Tuple.from("c")));

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void namedOperationsOverTheUnsignedEdges() {
        a.addAll(db, new long[] {0, 65536, Long.MIN_VALUE, -1}, 10).join();
        b.addAll(db, new long[] {0, 65537, Long.MIN_VALUE, -2}, 10).join();
        c.addAll(db, new long[] {0, -1, -2}, 10).join();
        try (Transaction tr = db.createTransaction()) {
            assertThat(SetAlgebra.and(tr, a, b).join().toArray()).containsExactly(0, Long.MIN_VALUE);
            assertThat(SetAlgebra.and(tr, a, b, c).join().toArray()).containsExactly(0);
            assertThat(SetAlgebra.or(tr, a, b).join().toArray())
                    .containsExactly(0, 65536, 65537, Long.MIN_VALUE, -2, -1);
            assertThat(SetAlgebra.andNot(tr, a, b).join().toArray()).containsExactly(65536, -1);
            assertThat(SetAlgebra.andNot(tr, a, b, c).join().toArray()).containsExactly(65536);
            assertThat(SetAlgebra.xor(tr, a, b).join().toArray()).containsExactly(65536, 65537, -2, -1);
            assertThat(SetAlgebra.xor(tr, a, b, c).join().toArray()).containsExactly(0, 65536, 65537);
            assertThat(SetAlgebra.or(tr.snapshot(), a).join().toArray()).containsExactly(0, 65536, Long.MIN_VALUE, -1);
        }
    }

    @Test
    void emptyInputsAndEmptyResults() {
        a.add(db, 5).join();
        try (Transaction tr = db.createTransaction()) {
            assertThat(SetAlgebra.and(tr, a, b).join().isEmpty()).isTrue();
            assertThat(SetAlgebra.or(tr, b, c).join().isEmpty()).isTrue();
            assertThat(SetAlgebra.andNot(tr, a, a).join().isEmpty()).isTrue();
            assertThatThrownBy(() -> SetAlgebra.compute(tr, SetOperation.OR, List.of()))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(SetAlgebra.store(db, SetOperation.AND, c, List.of(a, b)).join()).isZero();
        List<com.apple.foundationdb.KeyValue> stored = db.run(tr -> tr.getRange(c.subspace().range()).asList().join());
        assertThat(stored).isEmpty();
    }

    @Test
    void aResultTooLargeForOneTransactionIsRefusedBeforeAnyWrite() {
        long[] members = new long[100];
        for (int i = 0; i < members.length; i++) {
            members[i] = (long) i << 16; // 100 containers of one member
        }
        a.addAll(db, members, 1000).join();
        c.add(db, 7).join();
        assertThatThrownBy(() -> db.run(tr -> SetAlgebra.store(tr, SetOperation.OR, c, List.of(a, b), 1000).join()))
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(FDBException.class)
                .satisfies(e -> assertThat(((FDBException) e).getCode()).isEqualTo(2101));
        assertThat(c.toBitmap(db).join().toArray()).containsExactly(7);
        assertThat(SetAlgebra.store(db, SetOperation.OR, c, List.of(a, b)).join()).isEqualTo(100);
    }

    @Test
    void storeInSlicesWritesALargeResultOverSeveralTransactions() {
        long[] members = new long[3000];
        for (int i = 0; i < members.length; i++) {
            members[i] = (long) i << 16;
        }
        a.addAll(db, members, 1000).join();
        b.addAll(db, new long[] {0, 5, 1L << 16}, 10).join();
        c.add(db, 99).join();
        assertThat(SetAlgebra.storeInSlices(db, SetOperation.OR, c, List.of(a, b), 500).join()).isEqualTo(3001);
        Roaring64Bitmap expected = Roaring64Bitmap.bitmapOf(members);
        expected.addLong(5);
        assertThat(c.toBitmap(db).join()).isEqualTo(expected);
        assertThat(c.cardinality(db).join()).isEqualTo(3001);
        assertThat(SetAlgebra.storeInSlices(db, SetOperation.AND_NOT, a, List.of(a, b), 500).join()).isEqualTo(2998);
        assertThat(a.cardinality(db).join()).isEqualTo(2998);
    }

    /** A store that read an input which another transaction then changed must not commit a stale result. */
    @Test
    void storeConflictsWithAConcurrentChangeOfAnInput() {
        a.addAll(db, new long[] {1, 2, 3}, 10).join();
        b.addAll(db, new long[] {2, 3}, 10).join();
        Transaction store = db.createTransaction();
        assertThat(SetAlgebra.store(store, SetOperation.AND, c, List.of(a, b)).join()).isEqualTo(2);
        b.remove(db, 3).join();
        assertThatThrownBy(() -> store.commit().join()).cause().isInstanceOf(FDBException.class)
                .satisfies(e -> assertThat(((FDBException) e).getCode()).isEqualTo(1020));
        store.close();
        assertThat(SetAlgebra.store(db, SetOperation.AND, c, List.of(a, b)).join()).isEqualTo(1);
        assertThat(c.toBitmap(db).join()).isEqualTo(Roaring64Bitmap.bitmapOf(2));
    }
}
