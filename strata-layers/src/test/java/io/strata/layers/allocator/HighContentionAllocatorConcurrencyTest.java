package io.strata.layers.allocator;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our allocator sharing state with fdb-java's own directory layer, and under commit faults.
 * Each randomized test prints its seed; rerun with {@code -Dstrata.seed=<seed>} to replay
 * the fault draws (thread interleavings still vary).
 */
class HighContentionAllocatorConcurrencyTest {
    private static long seed(String test) {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(HighContentionAllocatorConcurrencyTest.class.getSimpleName() + "." + test + " seed=" + seed);
        return seed;
    }

    /** The official directory layer's allocations appear in our format, in our subspace. */
    @Test
    void officialDirectoryLayerWritesOurKeyFormatAtTheSharedSubspace() {
        try (Database db = Strata.inMemory()) {
            DirectoryLayer official = new DirectoryLayer();
            List<Long> prefixes = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                byte[] prefix = official.createOrOpen(db, List.of("d" + i)).join().getKey();
                prefixes.add(Tuple.fromBytes(prefix).getLong(0)); // the prefix is a tuple-encoded integer
            }
            Subspace shared = HighContentionAllocator.forDirectoryLayer(DirectoryLayer.DEFAULT_NODE_SUBSPACE).subspace();
            List<KeyValue> stored = db.run(tr -> tr.getRange(shared.range()).asList().join());
            List<Tuple> keys = stored.stream().map(kv -> shared.unpack(kv.getKey())).toList();
            List<Tuple> expected = new ArrayList<>();
            expected.add(Tuple.from(0, 0));
            prefixes.stream().sorted().forEach(p -> expected.add(Tuple.from(1, p)));
            assertThat(keys).containsExactlyElementsOf(expected);
            assertThat(stored.get(0).getValue()).containsExactly(5, 0, 0, 0, 0, 0, 0, 0);
            assertThat(stored.subList(1, stored.size())).allSatisfy(kv -> assertThat(kv.getValue()).isEmpty());
        }
    }

    /**
     * Two threads create directories with the official layer while two allocate with ours on
     * its allocator subspace, 600 allocations in all, crossing from 64- to 1024-wide windows:
     * no prefix is handed out twice, and none is a prefix of another.
     */
    @Test
    void interleavedWithOfficialDirectoryLayerNoPrefixIsHandedOutTwice() throws Exception {
        int perThread = 150;
        try (Database db = Strata.inMemory()) {
            DirectoryLayer official = new DirectoryLayer();
            HighContentionAllocator ours = HighContentionAllocator.forDirectoryLayer(DirectoryLayer.DEFAULT_NODE_SUBSPACE);
            List<Callable<List<byte[]>>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                workers.add(() -> {
                    List<byte[]> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        if (thread % 2 == 0) {
                            // The content subspace is empty, so the directory's key is the allocated body.
                            List<String> path = List.of("t" + thread, "d" + i);
                            mine.add(db.run(tr -> official.create(tr, path).join()).getKey());
                        } else {
                            mine.add(db.run(tr -> ours.allocate(tr).join()));
                        }
                    }
                    return mine;
                });
            }
            List<byte[]> all = runAll(workers);
            // The official side also allocated a prefix for each thread's parent directory.
            all.add(official.open(db, List.of("t0")).join().getKey());
            all.add(official.open(db, List.of("t2")).join().getKey());
            assertThat(all).hasSize(4 * perThread + 2);
            NaiveAllocatorTest.assertPrefixFree(all);
            assertThat(all).allSatisfy(p -> assertThat(Tuple.fromBytes(p).size()).isEqualTo(1));
        }
    }

    /**
     * Eight threads, 3,200 allocations, each in its own {@code db.run}, under spurious
     * conflicts and {@code commit_unknown_result} that did and did not commit. A result is
     * recorded only once {@code db.run} returned it, i.e. from the attempt that committed;
     * attempts that committed but reported 1021 burn their candidate, which is fine.
     */
    @Test
    void uniqueUnderConcurrencyAndCommitFaults() throws Exception {
        long seed = seed("uniqueUnderConcurrencyAndCommitFaults");
        FaultPolicy faults = FaultPolicy.seeded(seed)
                .notCommitted(0.05)
                .unknownResultCommitted(0.02)
                .unknownResultNotCommitted(0.02)
                .build();
        int threads = 8;
        int perThread = 400;
        AtomicInteger attempts = new AtomicInteger();
        try (Database db = Strata.builder().faults(faults).inMemory()) {
            HighContentionAllocator hca = new HighContentionAllocator(new Subspace(Tuple.from("stress")));
            List<Callable<List<byte[]>>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(() -> {
                    List<byte[]> committed = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        committed.add(db.run(tr -> {
                            attempts.incrementAndGet();
                            return hca.allocate(tr).join();
                        }));
                    }
                    return committed;
                });
            }
            List<byte[]> all = runAll(workers);
            System.out.println("  " + all.size() + " allocations took " + attempts.get() + " attempts");
            assertThat(all).hasSize(threads * perThread);
            NaiveAllocatorTest.assertPrefixFree(all);
        }
    }

    /** Runs the workers from a common start and gathers their results. */
    private static List<byte[]> runAll(List<Callable<List<byte[]>>> workers) throws Exception {
        CyclicBarrier start = new CyclicBarrier(workers.size());
        ExecutorService pool = Executors.newFixedThreadPool(workers.size());
        try {
            List<Future<List<byte[]>>> futures = new ArrayList<>();
            for (Callable<List<byte[]>> worker : workers) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return worker.call();
                }));
            }
            List<byte[]> all = Collections.synchronizedList(new ArrayList<>());
            for (Future<List<byte[]>> f : futures) {
                all.addAll(f.get(60, TimeUnit.SECONDS));
            }
            return new ArrayList<>(all);
        } finally {
            pool.shutdownNow();
        }
    }
}
