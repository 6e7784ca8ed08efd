package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Threads adding and removing members that share containers, under spurious conflicts and
 * {@code commit_unknown_result} that did and did not commit: the counter kept by atomic ADD
 * must equal the number of members actually stored, and membership must match what the
 * acknowledged operations imply. Prints its seed; rerun with {@code -Dstrata.seed=<seed>} to
 * replay the fault and operation draws (thread interleavings still vary).
 */
class RoaringSetConcurrencyTest {
    private static final int THREADS = 6;
    private static final int OPERATIONS = 250;
    /** Members each thread owns; interleaved with the other threads' in the same three containers. */
    private static final int OWNED = 48;
    /** Members every thread adds and removes. */
    private static final long[] SHARED = {65_530, 65_531, 65_535, 65_536, 65_537, 131_071, 131_072, 140_000};

    private static long seed(String test) {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(RoaringSetConcurrencyTest.class.getSimpleName() + "." + test + " seed=" + seed);
        return seed;
    }

    /** Thread t's i-th member: spread over containers 0..2 (2^16 each), interleaved with the other threads'. */
    private static long owned(int thread, int i) {
        return 60_000 + (long) i * 2_900 + thread;
    }

    @Test
    void cardinalityStaysExactAndMembershipFollowsAcknowledgedOperationsUnderCommitFaults() throws Exception {
        long seed = seed("cardinalityStaysExactAndMembershipFollowsAcknowledgedOperationsUnderCommitFaults");
        FaultPolicy faults = FaultPolicy.seeded(seed)
                .notCommitted(0.05)
                .unknownResultCommitted(0.04)
                .unknownResultNotCommitted(0.04)
                .build();
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger unknownResults = new AtomicInteger();
        RoaringSet set = new RoaringSet(new Subspace(Tuple.from("stress")));
        try (Database db = Strata.builder().faults(faults).inMemory()) {
            List<Map<Long, Boolean>> lastAcknowledged = runThreads(seed, db, set, attempts, unknownResults);
            System.out.println("  " + THREADS * OPERATIONS + " operations took " + attempts.get() + " attempts, "
                    + unknownResults.get() + " commit_unknown_result");

            Roaring64Bitmap stored;
            long cardinality;
            List<Long> iterated;
            try (Transaction tr = db.createTransaction()) {
                stored = set.toBitmap(tr).join();
                cardinality = set.cardinality(tr).join();
                iterated = set.members(tr).asList().join();
            }
            assertThat(cardinality).as("counter vs stored members").isEqualTo(stored.getLongCardinality());
            assertThat(iterated).hasSize((int) cardinality);
            for (int t = 0; t < THREADS; t++) {
                for (int i = 0; i < OWNED; i++) {
                    long m = owned(t, i);
                    boolean expected = lastAcknowledged.get(t).getOrDefault(m, false);
                    assertThat(stored.contains(m)).as("owned member %d of thread %d", m, t).isEqualTo(expected);
                }
            }
            for (long m : SHARED) {
                Set<Boolean> possible = new java.util.HashSet<>();
                for (Map<Long, Boolean> last : lastAcknowledged) {
                    if (last.containsKey(m)) {
                        possible.add(last.get(m)); // the last writer in commit order was one of these
                    }
                }
                if (possible.isEmpty()) {
                    possible.add(false);
                }
                assertThat(possible).as("shared member %d", m).contains(stored.contains(m));
            }
            long expectedOwned = 0;
            for (Map<Long, Boolean> last : lastAcknowledged) {
                for (Map.Entry<Long, Boolean> e : last.entrySet()) {
                    if (e.getValue() && !isShared(e.getKey())) {
                        expectedOwned++;
                    }
                }
            }
            long storedShared = java.util.Arrays.stream(SHARED).filter(stored::contains).count();
            assertThat(cardinality).isEqualTo(expectedOwned + storedShared);
        }
    }

    /**
     * The retry loop {@code db.run} runs, spelled out to count the 1021s: the operation, the
     * commit, and on failure {@code onError} (which resets the transaction and backs off).
     */
    private static void runRetrying(Database db, Function<Transaction, CompletableFuture<?>> op, AtomicInteger unknownResults) {
        Transaction tr = db.createTransaction();
        try {
            while (true) {
                try {
                    op.apply(tr).join();
                    tr.commit().join();
                    return;
                } catch (CompletionException e) {
                    if (!(e.getCause() instanceof FDBException fdb)) {
                        throw e;
                    }
                    if (fdb.getCode() == 1021) {
                        unknownResults.incrementAndGet();
                    }
                    tr = tr.onError(fdb).join();
                }
            }
        } finally {
            tr.close();
        }
    }

    private static boolean isShared(long m) {
        for (long s : SHARED) {
            if (s == m) {
                return true;
            }
        }
        return false;
    }

    /**
     * Each thread runs its operations, each in its own retried transaction, and returns the state
     * its last acknowledged operation left each member it touched in.
     */
    private static List<Map<Long, Boolean>> runThreads(long seed, Database db, RoaringSet set, AtomicInteger attempts,
                                                       AtomicInteger unknownResults) throws Exception {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Map<Long, Boolean>>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    Random random = new Random(seed * 31 + thread);
                    Map<Long, Boolean> last = new HashMap<>();
                    start.await();
                    for (int op = 0; op < OPERATIONS; op++) {
                        boolean add = random.nextInt(3) != 0;
                        long[] members = new long[random.nextInt(4) == 0 ? 1 + random.nextInt(12) : 1];
                        for (int k = 0; k < members.length; k++) {
                            members[k] = random.nextInt(5) == 0 ? SHARED[random.nextInt(SHARED.length)]
                                    : owned(thread, random.nextInt(OWNED));
                        }
                        runRetrying(db, tr -> {
                            attempts.incrementAndGet();
                            if (members.length == 1) {
                                return add ? set.add(tr, members[0]) : set.remove(tr, members[0]);
                            }
                            return add ? set.addAll(tr, members) : set.removeAll(tr, members);
                        }, unknownResults);
                        for (long m : members) {
                            last.put(m, add);
                        }
                    }
                    return last;
                }));
            }
            List<Map<Long, Boolean>> all = new ArrayList<>();
            for (Future<Map<Long, Boolean>> f : futures) {
                all.add(f.get(60, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
