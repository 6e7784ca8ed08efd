package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.Random;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link RoaringSet#select}: the member at each rank, as Roaring64Bitmap's own select says, over every container shape. */
class RoaringSetSelectTest {
    private final Database db = Strata.inMemory();
    private final RoaringSet set = new RoaringSet(new Subspace(Tuple.from("s")));

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void everyRankOfMixedContainersAndTheUnsignedEdges() {
        Roaring64Bitmap expected = new Roaring64Bitmap();
        Random random = new Random(3);
        for (int i = 0; i < 500; i++) {
            expected.addLong(random.nextLong()); // sparse, both signs: unsigned order matters
        }
        expected.addRange(1L << 20, (1L << 20) + 70_000); // runs across two containers
        for (int i = 0; i < 20_000; i++) {
            expected.addLong((5L << 16) + random.nextInt(1 << 16)); // a bitmap container
        }
        expected.addLong(0);
        expected.addLong(-1L);
        expected.addLong(Long.MIN_VALUE);
        set.addAll(db, expected, 50_000).join();

        long size = expected.getLongCardinality();
        long[] ranks = new long[2000];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = i < 3 ? new long[] {0, size - 1, 500}[i] : (long) (random.nextDouble() * size);
        }
        long[] members = db.read(tr -> set.select(tr, ranks)).join();
        for (int i = 0; i < ranks.length; i++) {
            assertThat(members[i]).as("rank %d", ranks[i]).isEqualTo(expected.select(ranks[i]));
        }
        assertThat(db.read(tr -> set.select(tr, 0, 0)).join()).containsExactly(0, 0);
        assertThat(db.read(tr -> set.select(tr)).join()).isEmpty();
    }

    @Test
    void aRankOutsideTheSetFails() {
        set.addAll(db, new long[] {7, 9}, 10).join();
        assertThatThrownBy(() -> db.read(tr -> set.select(tr, 2)).join())
                .isInstanceOf(CompletionException.class).hasRootCauseInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> db.read(tr -> set.select(tr, -1)).join())
                .hasRootCauseInstanceOf(IndexOutOfBoundsException.class);
    }
}
