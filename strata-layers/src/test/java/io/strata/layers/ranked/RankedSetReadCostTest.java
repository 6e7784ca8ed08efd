package io.strata.layers.ranked;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static io.strata.layers.ranked.RankedSetChecks.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lookups read O(log n) keys: counted with {@link CountingReads}, not timed. With fanout 4 and
 * 6 levels, 2,048 elements fill the structure up to its top level (4^5 = 1,024 elements per top
 * tower), so a lookup walks about 4 keys at each of the 6 levels, about log_4(n) levels. The
 * bound asserted, 6 * 4 * 6 keys, allows for the walks' variance (the shape is deterministic,
 * the towers being a hash of the elements) and is an order of magnitude below n.
 */
class RankedSetReadCostTest {
    private static final int N = 2_048;
    private static final int FANOUT_BITS = 2;
    private static final int LEVELS = 6;
    /** About six times the expected fanout * levels: the walk at each level is geometric, its tail thin. */
    private static final long BOUND = 6L * (1 << FANOUT_BITS) * LEVELS;

    private static Database db;
    private static RankedSet set;
    private static List<byte[]> elements;

    @BeforeAll
    static void fill() {
        db = Strata.inMemory();
        set = new RankedSet(new Subspace(Tuple.from("cost")), FANOUT_BITS, LEVELS);
        elements = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            elements.add(bytes(String.format("member:%06d", i * 3)));
        }
        List<byte[]> shuffled = new ArrayList<>(elements);
        Collections.shuffle(shuffled, new Random(3));
        for (int from = 0; from < N; from += 16) { // small transactions: the engine's RYW is fastest so
            List<byte[]> slice = shuffled.subList(from, from + 16);
            db.run(tr -> {
                for (byte[] e : slice) {
                    set.add(tr, e).join();
                }
                return null;
            });
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void rankGetNthAndCountReadLogarithmicallyManyKeys() {
        Random random = new Random(7);
        LongSummaryStatistics ranks = new LongSummaryStatistics();
        LongSummaryStatistics nths = new LongSummaryStatistics();
        LongSummaryStatistics counts = new LongSummaryStatistics();
        for (int sample = 0; sample < 120; sample++) {
            int i = random.nextInt(N);
            byte[] e = elements.get(i);
            long rank = keysRead(tr -> set.rank(tr, e).join().getAsLong(), ranks);
            byte[] nth = keysRead(tr -> set.getNth(tr, i).join().orElseThrow(), nths);
            assertThat(rank).isEqualTo(i);
            assertThat(nth).isEqualTo(e);
            int j = random.nextInt(N);
            keysRead(tr -> set.count(tr, elements.get(Math.min(i, j)), elements.get(Math.max(i, j))).join(), counts);
        }
        System.out.printf("RankedSetReadCostTest: n=%d, keys read: rank avg %.1f max %d, getNth avg %.1f max %d, count avg %.1f max %d (bound %d)%n",
                N, ranks.getAverage(), ranks.getMax(), nths.getAverage(), nths.getMax(), counts.getAverage(), counts.getMax(), BOUND);
        assertThat(ranks.getMax()).isLessThanOrEqualTo(BOUND);
        assertThat(nths.getMax()).isLessThanOrEqualTo(BOUND);
        assertThat(counts.getMax()).as("two rank lookups").isLessThanOrEqualTo(2 * BOUND);
        assertThat(BOUND).as("the bound is far below n").isLessThan(N / 10);
    }

    @Test
    void changesReadAKeyPerLevelAndAShortWalkPerTowerLevel() {
        LongSummaryStatistics adds = new LongSummaryStatistics();
        LongSummaryStatistics removes = new LongSummaryStatistics();
        for (int i = 0; i < 60; i++) {
            byte[] e = elements.get(i * 19 % N);
            keysReadInChange(tr -> set.remove(tr, e).join(), removes);
            keysReadInChange(tr -> set.add(tr, e).join(), adds); // as it was: the other test may run after
        }
        System.out.printf("RankedSetReadCostTest: n=%d, keys read: add avg %.1f max %d, remove avg %.1f max %d%n",
                N, adds.getAverage(), adds.getMax(), removes.getAverage(), removes.getMax());
        // Membership, then at most one predecessor per level; towers walk about 4 keys per level they reach.
        assertThat(adds.getAverage()).isLessThan(LEVELS + 2 * (1 << FANOUT_BITS));
        assertThat(adds.getMax()).isLessThanOrEqualTo(BOUND);
        assertThat(removes.getMax()).isLessThanOrEqualTo(2L * LEVELS);
    }

    private static <T> T keysRead(Function<Transaction, T> lookup, LongSummaryStatistics stats) {
        AtomicLong keys = new AtomicLong();
        try (Transaction tr = db.createTransaction()) {
            T result = lookup.apply(CountingReads.of(tr, keys));
            stats.accept(keys.get());
            return result;
        }
    }

    private static void keysReadInChange(Function<Transaction, Boolean> change, LongSummaryStatistics stats) {
        AtomicLong keys = new AtomicLong();
        try (Transaction tr = db.createTransaction()) {
            assertThat(change.apply(CountingReads.of(tr, keys))).isTrue();
            tr.commit().join();
            stats.accept(keys.get());
        }
    }
}
