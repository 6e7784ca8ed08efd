package io.strata.layers.ranked;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static io.strata.layers.ranked.RankedSetChecks.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Threads adding and removing elements, each its own (interleaved in key order with the
 * others', so towers split and merge counts that other threads' elements are in) and a few
 * shared ones, under spurious conflicts and {@code commit_unknown_result} that did and did not
 * commit, while a reader checks that every snapshot it reads is self-consistent. Afterwards
 * the structure must satisfy the invariant, every rank must be exact, and membership must
 * follow the acknowledged operations. Small fanouts make most elements towers, the hard case.
 * Prints its seed; rerun with {@code -Dstrata.seed=<seed>} to replay the fault and operation
 * draws (thread interleavings still vary).
 */
class RankedSetConcurrencyTest {
    private static final int THREADS = 4;
    private static final int OPERATIONS = 100;
    private static final int OWNED = 40;
    private static final List<byte[]> SHARED = List.of(bytes("005"), bytes("020/"), bytes("020/x"), bytes("039~"), bytes(""));

    /** Thread t's i-th element: "iii/t", so the threads' elements alternate in key order. */
    private static byte[] owned(int thread, int i) {
        return bytes(String.format("%03d/%d", i, thread));
    }

    private static boolean isShared(byte[] e) {
        return SHARED.stream().anyMatch(s -> java.util.Arrays.equals(s, e));
    }

    @ParameterizedTest(name = "fanoutBits={0}, levels={1}")
    @CsvSource({"1, 5", "2, 4"})
    void countsStayExactUnderConcurrentChangesAndCommitFaults(int fanoutBits, int levels) throws Exception {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + " fanoutBits=" + fanoutBits + " seed=" + seed);
        FaultPolicy faults = FaultPolicy.seeded(seed)
                .notCommitted(0.04)
                .unknownResultCommitted(0.04)
                .unknownResultNotCommitted(0.04)
                .build();
        RankedSet set = new RankedSet(new Subspace(Tuple.from("stress", fanoutBits)), fanoutBits, levels);
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger unknownResults = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        // Reads and commits take a little while, so that the threads' transactions overlap.
        LatencyModel overlap = LatencyModel.of(Duration.ZERO, Duration.ofNanos(400_000), Duration.ofNanos(400_000));
        try (Database db = Strata.builder().faults(faults).latency(overlap).inMemory()) {
            List<Map<String, Boolean>> last = runThreads(seed, db, set, attempts, unknownResults, conflicts);
            System.out.println("  " + THREADS * OPERATIONS + " operations took " + attempts.get() + " attempts, "
                    + unknownResults.get() + " commit_unknown_result, " + conflicts.get() + " not_committed");

            TreeSet<byte[]> stored = RankedSetChecks.model();
            try (Transaction tr = db.createTransaction()) {
                stored.addAll(set.scan(tr, new byte[0], null, 0, false).asList().join());
                RankedSetChecks.assertStructure(tr, set, stored);
                assertThat(set.size(tr).join()).isEqualTo(stored.size());
                int i = 0;
                for (byte[] e : stored) {
                    assertThat(set.rank(tr, e).join()).isEqualTo(OptionalLong.of(i));
                    assertThat(set.getNth(tr, i).join()).contains(e);
                    i++;
                }
            }
            for (int t = 0; t < THREADS; t++) {
                for (int i = 0; i < OWNED; i++) {
                    byte[] e = owned(t, i);
                    boolean expected = last.get(t).getOrDefault(new String(e, java.nio.charset.StandardCharsets.ISO_8859_1), false);
                    assertThat(stored.contains(e)).as("owned element %s of thread %d", new String(e), t).isEqualTo(expected);
                }
            }
            for (byte[] s : SHARED) {
                Set<Boolean> possible = new HashSet<>();
                String key = new String(s, java.nio.charset.StandardCharsets.ISO_8859_1);
                for (Map<String, Boolean> l : last) {
                    if (l.containsKey(key)) {
                        possible.add(l.get(key)); // the last writer in commit order was one of these
                    }
                }
                if (possible.isEmpty()) {
                    possible.add(false);
                }
                assertThat(possible).as("shared element '%s'", key).contains(stored.contains(s));
            }
        }
    }

    /**
     * Each writer runs its operations, each in its own retried transaction (a quarter of them
     * change two elements in one transaction), and returns the state its last acknowledged
     * operation left each element it touched in. A reader meanwhile checks snapshots.
     */
    private static List<Map<String, Boolean>> runThreads(long seed, Database db, RankedSet set, AtomicInteger attempts,
                                                         AtomicInteger unknownResults, AtomicInteger conflicts) throws Exception {
        CyclicBarrier start = new CyclicBarrier(THREADS + 1);
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        try {
            Future<Integer> reader = pool.submit(() -> {
                start.await();
                int snapshots = 0;
                Random random = new Random(seed);
                while (writing.get()) {
                    checkSnapshot(db, set, random);
                    snapshots++;
                }
                return snapshots;
            });
            List<Future<Map<String, Boolean>>> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers.add(pool.submit(() -> {
                    Random random = new Random(seed * 31 + thread);
                    Map<String, Boolean> last = new HashMap<>();
                    start.await();
                    for (int op = 0; op < OPERATIONS; op++) {
                        int changes = random.nextInt(4) == 0 ? 2 : 1;
                        byte[][] elements = new byte[changes][];
                        boolean[] adds = new boolean[changes];
                        for (int c = 0; c < changes; c++) {
                            elements[c] = random.nextInt(6) == 0 ? SHARED.get(random.nextInt(SHARED.size()))
                                    : owned(thread, random.nextInt(OWNED));
                            adds[c] = random.nextInt(3) != 0;
                        }
                        runRetrying(db, tr -> {
                            attempts.incrementAndGet();
                            CompletableFuture<Boolean> done = CompletableFuture.completedFuture(true);
                            for (int c = 0; c < changes; c++) {
                                byte[] e = elements[c];
                                boolean add = adds[c];
                                done = done.thenCompose(ignore -> add ? set.add(tr, e) : set.remove(tr, e)); // sequenced
                            }
                            return done;
                        }, unknownResults, conflicts);
                        for (int c = 0; c < changes; c++) {
                            last.put(new String(elements[c], java.nio.charset.StandardCharsets.ISO_8859_1), adds[c]);
                        }
                    }
                    return last;
                }));
            }
            List<Map<String, Boolean>> all = new ArrayList<>();
            try {
                for (Future<Map<String, Boolean>> f : writers) {
                    all.add(f.get(60, TimeUnit.SECONDS));
                }
            } finally {
                writing.set(false);
            }
            assertThat(reader.get(60, TimeUnit.SECONDS)).isPositive();
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** In one snapshot: size, the element of a random rank and its rank agree, and so do a count and the scan it counts. */
    private static void checkSnapshot(Database db, RankedSet set, Random random) {
        try (Transaction tr = db.createTransaction()) {
            long size = set.size(tr).join();
            if (size == 0) {
                return;
            }
            long i = random.nextLong(size);
            Optional<byte[]> nth = set.getNth(tr, i).join();
            assertThat(nth).as("getNth(%d) of %d", i, size).isPresent();
            assertThat(set.rank(tr, nth.get()).join()).isEqualTo(OptionalLong.of(i));
            assertThat(set.getNth(tr, size).join()).isEmpty();
            byte[] from = owned(0, random.nextInt(OWNED));
            assertThat(set.count(tr, from, null).join())
                    .isEqualTo(set.scan(tr, from, null, 0, false).asList().join().size());
        }
    }

    /** The retry loop {@code db.run} runs, spelled out to count the 1021s. */
    private static void runRetrying(Database db, Function<Transaction, CompletableFuture<?>> op, AtomicInteger unknownResults,
                                    AtomicInteger conflicts) {
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
                    } else if (fdb.getCode() == 1020) {
                        conflicts.incrementAndGet();
                    }
                    tr = tr.onError(fdb).join();
                }
            }
        } finally {
            tr.close();
        }
    }
}
