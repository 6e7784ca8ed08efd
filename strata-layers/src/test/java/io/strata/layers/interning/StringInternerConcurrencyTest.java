package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads interning overlapping strings, in batches with duplicates, under spurious
 * conflicts, {@code commit_unknown_result} that did and did not commit, and
 * {@code transaction_too_old}: afterwards the stored mapping is a bijection, and every ID a
 * client was told is the stored one, for every allocator. Each run prints its seed; rerun
 * with {@code -Dstrata.seed=<seed>} to replay the fault draws and the batches (thread
 * interleavings still vary).
 */
class StringInternerConcurrencyTest {
    private static final Subspace S = new Subspace(Tuple.from("stress"));
    private static final int THREADS = 8;
    private static final int BATCHES_PER_THREAD = 40;
    /** Small enough that threads keep meeting on the same new strings. */
    private static final int POOL = 400;

    private static StringInterner interner(String kind, int cache) {
        return switch (kind) {
            case "sharded-32/32" -> StringInterner.sharded(S, 32, 32, cache);
            // Four sequences of 255 IDs: same-sequence conflicts and exhaustion are routine.
            case "sharded-2/8" -> StringInterner.sharded(S, 2, 8, cache);
            case "counter" -> new StringInterner(S, SingleCounterAllocator::new, cache);
            case "hca" -> new StringInterner(S, HcaIdAllocator::new, cache);
            case "versionstamp" -> StringInterner.withVersionstamps(S, new VersionstampIdAllocator(), cache);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"sharded-32/32", "sharded-2/8", "counter", "hca", "versionstamp"})
    void bijectionUnderConcurrencyAndCommitFaults(String kind) throws Exception {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + " " + kind + " seed=" + seed);
        FaultPolicy faults = FaultPolicy.seeded(seed)
                .notCommitted(0.05)
                .unknownResultCommitted(0.05)
                .unknownResultNotCommitted(0.05)
                .transactionTooOld(0.01)
                .build();
        try (Database db = Strata.builder().faults(faults).inMemory()) {
            StringInterner in = interner(kind, kind.startsWith("sharded-32") ? 0 : 256);
            List<Callable<Map<ByteBuffer, Long>>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random random = new Random(seed + t);
                workers.add(() -> {
                    Map<ByteBuffer, Long> told = new HashMap<>();
                    for (int b = 0; b < BATCHES_PER_THREAD; b++) {
                        List<byte[]> batch = new ArrayList<>();
                        int size = 1 + random.nextInt(12);
                        for (int i = 0; i < size; i++) {
                            batch.add(("s" + random.nextInt(POOL)).getBytes(StandardCharsets.UTF_8));
                        }
                        long[] ids = in.internAll(db, batch).join();
                        for (int i = 0; i < size; i++) {
                            Long before = told.put(ByteBuffer.wrap(batch.get(i)), ids[i]);
                            assertThat(before == null || before == ids[i]).as("a string changed ID").isTrue();
                        }
                    }
                    return told;
                });
            }
            Map<ByteBuffer, Long> told = new HashMap<>();
            for (Map<ByteBuffer, Long> m : runAll(workers)) {
                for (Map.Entry<ByteBuffer, Long> e : m.entrySet()) {
                    Long other = told.put(e.getKey(), e.getValue());
                    assertThat(other == null || other.equals(e.getValue())).as("two clients told two IDs").isTrue();
                }
            }
            Map<ByteBuffer, Long> stored = InternerChecks.assertBijection(db, S,
                    kind.equals("versionstamp") ? new VersionstampIdAllocator() : null, told);
            assertThat(stored.keySet()).containsAll(told.keySet());
            System.out.println("  " + told.size() + " strings told, " + stored.size() + " stored");
        }
    }

    private static <T> List<T> runAll(List<Callable<T>> workers) throws Exception {
        CyclicBarrier start = new CyclicBarrier(workers.size());
        ExecutorService pool = Executors.newFixedThreadPool(workers.size());
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> worker : workers) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return worker.call();
                }));
            }
            List<T> all = new ArrayList<>();
            for (Future<T> f : futures) {
                all.add(f.get(60, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
