package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ID composition, batches, exhaustion of the sharded sequences. */
class ShardedSequenceAllocatorTest {
    private static final Subspace COUNTERS = new Subspace(Tuple.from("c"));

    @Test
    void layoutsOfTheSeedAndOfKvdbAreExpressible() {
        try (Database db = Strata.inMemory()) {
            for (int[] bits : new int[][]{{32, 32}, {16, 48}, {0, 63}, {14, 50}}) {
                ShardedSequenceAllocator a = new ShardedSequenceAllocator(COUNTERS.get(bits[0]), bits[0], bits[1], new Random(7));
                long[] ids = db.runAsync(tr -> a.allocate(tr, 3)).join();
                long sequence = ids[0] >>> bits[1];
                assertThat(sequence).isLessThan(bits[0] == 0 ? 1 : 1L << bits[0]);
                for (int i = 0; i < 3; i++) {
                    assertThat(ids[i] >>> bits[1]).isEqualTo(sequence);
                    assertThat(ids[i] & ((1L << bits[1]) - 1)).isEqualTo(i + 1);
                }
            }
        }
    }

    @Test
    void rejectsImpossibleLayouts() {
        assertThatThrownBy(() -> new ShardedSequenceAllocator(COUNTERS, 32, 33)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ShardedSequenceAllocator(COUNTERS, 0, 64)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ShardedSequenceAllocator(COUNTERS, -1, 8)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * 4 sequences of 7 IDs each: batches of 5 spill across sequences, an exhausted sequence
     * is never used again, every one of the 28 IDs is handed out once, then the space is full.
     */
    @Test
    void exhaustedSequencesAreSkippedForeverAndAFullSpaceFailsClearly() {
        try (Database db = Strata.inMemory()) {
            ShardedSequenceAllocator a = new ShardedSequenceAllocator(COUNTERS, 2, 3, new Random(42));
            Set<Long> seen = new HashSet<>();
            int handedOut = 0;
            while (handedOut < 25) {
                long[] ids = db.runAsync(tr -> a.allocate(tr, 5)).join();
                for (long id : ids) {
                    assertThat(seen.add(id)).as("id %d handed out twice", id).isTrue();
                    assertThat(id & 7).isBetween(1L, 7L);
                }
                handedOut += ids.length;
            }
            long[] last = db.runAsync(tr -> a.allocate(tr, 3)).join();
            for (long id : last) {
                assertThat(seen.add(id)).isTrue();
            }
            assertThat(seen).hasSize(28);
            assertThatThrownBy(() -> db.runAsync(tr -> a.allocate(tr, 1)).join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(IllegalStateException.class)
                    .hasStackTraceContaining("exhausted");
        }
    }

    @Test
    void callsIssuedAtOnceInOneTransactionTakeDistinctIdsAndLeaveNothingBehind() {
        // Reads take 100 ms, so all five calls are in flight together; with no sequence bits
        // every call reads and writes the one counter, so only chaining keeps them apart. (With
        // 1 ms, a stall of the test thread under a loaded suite let the first read finish and
        // the chain complete before the in-flight count was looked at.)
        LatencyModel slowReads = LatencyModel.of(Duration.ZERO, Duration.ofMillis(100), Duration.ZERO);
        try (Database db = Strata.builder().latency(slowReads).inMemory()) {
            ShardedSequenceAllocator a = new ShardedSequenceAllocator(COUNTERS, 0, 63);
            List<Long> ids = db.runAsync(tr -> {
                List<CompletableFuture<long[]>> calls = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    calls.add(a.allocate(tr, 3));
                }
                assertThat(a.transactionsInFlight()).isEqualTo(1);
                return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).thenApply(done -> {
                    List<Long> all = new ArrayList<>();
                    calls.forEach(c -> {
                        for (long id : c.join()) {
                            all.add(id);
                        }
                    });
                    return all;
                });
            }).join();
            assertThat(ids).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L);
            assertThat(a.transactionsInFlight()).as("finished transactions are not kept").isZero();
        }
    }

    @Test
    void singleCounterCountsFromOne() {
        try (Database db = Strata.inMemory()) {
            SingleCounterAllocator a = new SingleCounterAllocator(COUNTERS);
            assertThat(db.runAsync(tr -> a.allocate(tr, 3)).join()).containsExactly(1, 2, 3);
            assertThat(db.runAsync(tr -> a.allocate(tr, 2)).join()).containsExactly(4, 5);
        }
    }
}
