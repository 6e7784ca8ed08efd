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
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link SetAlgebra#andCardinality}: counts as {@code and} does, honours the limit, and reads no further than it needs. */
class IntersectionCounterTest {
    private final Database db = Strata.inMemory();
    private final RoaringSet a = new RoaringSet(new Subspace(Tuple.from("a")));
    private final RoaringSet b = new RoaringSet(new Subspace(Tuple.from("b")));
    private final RoaringSet c = new RoaringSet(new Subspace(Tuple.from("c")));

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void countsWhatAndComputesOnRandomSetsOfMixedShapes() {
        Random random = new Random(7);
        for (int round = 0; round < 6; round++) {
            for (RoaringSet s : List.of(a, b, c)) {
                s.clear(db).join();
                s.addAll(db, randomMembers(random), 100_000).join();
            }
            for (List<RoaringSet> sets : List.of(List.of(a), List.of(a, b), List.of(b, a), List.of(a, b, c), List.of(a, a))) {
                long expected = db.read(tr -> SetAlgebra.compute(tr, SetOperation.AND, sets).join()).getLongCardinality();
                assertThat(count(sets, 0)).isEqualTo(expected);
                long limit = 1 + random.nextInt(2000);
                assertThat(count(sets, limit)).isEqualTo(Math.min(expected, limit));
            }
        }
    }

    @Test
    void anEmptyOrMissingSetGivesZero() {
        a.addAll(db, new long[] {1, 2, 3}, 10).join();
        assertThat(count(List.of(a, b), 0)).isZero();
        assertThat(count(List.of(b, a), 0)).isZero();
        assertThat(count(List.of(b), 5)).isZero();
        assertThat(count(List.of(a), 2)).isEqualTo(2);
        try (Transaction tr = db.createTransaction()) {
            assertThatThrownBy(() -> SetAlgebra.andCardinality(tr, List.of(), 0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> SetAlgebra.andCardinality(tr, List.of(a), -1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /**
     * Two sets sharing members spread over 2,000 containers: a count stopped by a limit
     * reached in the first page has not read the last containers, so a concurrent change
     * there does not conflict with it; an unlimited count has, and does.
     */
    @Test
    void aLimitReachedEarlyLeavesTheRestUnread() {
        long[] members = new long[2000];
        for (int i = 0; i < members.length; i++) {
            members[i] = (long) i << 16;
        }
        a.addAll(db, members, 1000).join();
        b.addAll(db, members, 1000).join();
        long late = (long) 1999 << 16 | 1;

        assertThat(countThenCommitAfterAChangeAt(late, 10)).isNull();
        Throwable unlimited = countThenCommitAfterAChangeAt(late, 0);
        assertThat(unlimited).isInstanceOf(FDBException.class);
        assertThat(((FDBException) unlimited).getCode()).isEqualTo(1020);
    }

    private long count(List<RoaringSet> sets, long limit) {
        return db.read(tr -> SetAlgebra.andCardinality(tr, sets, limit)).join();
    }

    /** Counts a ∩ b in a writing transaction, lets another add {@code member} to a and b, and commits; the commit's error or null. */
    private Throwable countThenCommitAfterAChangeAt(long member, long limit) {
        try (Transaction counting = db.createTransaction()) {
            long n = SetAlgebra.andCardinality(counting, List.of(a, b), limit).join();
            assertThat(n).isEqualTo(limit == 0 ? 2000 : limit);
            counting.set(new byte[] {'z'}, new byte[] {1}); // a write, so the commit checks conflicts
            db.run(tr -> {
                a.add(tr, member).join();
                return b.add(tr, member).join();
            });
            try {
                counting.commit().join();
                return null;
            } catch (Exception e) {
                return e.getCause();
            } finally {
                db.run(tr -> {
                    a.remove(tr, member).join();
                    return b.remove(tr, member).join();
                });
            }
        }
    }

    /** Sparse members, a dense block and a run, so that array, bitmap and run containers all meet. */
    private static Roaring64Bitmap randomMembers(Random random) {
        Roaring64Bitmap m = new Roaring64Bitmap();
        int sparse = random.nextInt(300);
        for (int i = 0; i < sparse; i++) {
            m.addLong(random.nextInt(1 << 20));
        }
        long base = (long) random.nextInt(8) << 16;
        for (int i = 0; i < 10_000; i++) {
            m.addLong(base + random.nextInt(1 << 16));
        }
        long run = (long) random.nextInt(8) << 16;
        m.addRange(run + 100, run + 100 + random.nextInt(30_000));
        return m;
    }
}
