package io.strata.engine.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official {@link DirectoryLayer}'s prefix allocator (the high-contention allocator)
 * is correct only if the database is serializable: two transactions that pick the same
 * candidate must not both commit, and a directory created concurrently by two clients
 * must be created once. Weaker isolation shows up here as two directories sharing a prefix,
 * one prefix being a prefix of another, or one path opened with two different prefixes.
 *
 * <p>Each test prints its seed; rerun with {@code -Dstrata.seed=<seed>} to replay the same
 * path orders and fault draws (thread interleavings still vary).
 */
class DirectoryLayerConcurrencyTest {
    private static final int THREADS = 8;
    private static final int PATHS_PER_THREAD = 200;

    private static long seed(String test) {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(DirectoryLayerConcurrencyTest.class.getSimpleName() + "." + test + " seed=" + seed);
        return seed;
    }

    @Test
    void concurrentCreateOrOpenOfDistinctPathsAllocatesUniquePrefixFreePrefixes() throws Exception {
        long seed = seed("concurrentCreateOrOpenOfDistinctPathsAllocatesUniquePrefixFreePrefixes");
        try (Database db = Strata.inMemory()) {
            createDistinctPathsConcurrentlyAndCheck(db, seed);
        }
    }

    @Test
    void concurrentCreateOrOpenUnderCommitFaultsStillAllocatesUniquePrefixFreePrefixes() throws Exception {
        long seed = seed("concurrentCreateOrOpenUnderCommitFaultsStillAllocatesUniquePrefixFreePrefixes");
        FaultPolicy faults = FaultPolicy.seeded(seed)
                .notCommitted(0.05)
                .unknownResultCommitted(0.05)
                .unknownResultNotCommitted(0.05)
                .build();
        try (Database db = Strata.builder().faults(faults).inMemory()) {
            createDistinctPathsConcurrentlyAndCheck(db, seed);
        }
    }

    /**
     * Eight threads, each creating its own 200 paths (nested under a per-thread parent, so
     * parents are created on the fly) in a seeded random order, every call in its own
     * {@code db.run}. Afterwards: every directory (parents included) has a prefix of its own,
     * no prefix is a prefix of another, and opening each path again gives the prefix the
     * creating thread was handed.
     */
    private static void createDistinctPathsConcurrentlyAndCheck(Database db, long seed) throws Exception {
        DirectoryLayer dl = new DirectoryLayer();
        Map<List<String>, byte[]> handedOut = new ConcurrentHashMap<>();
        AtomicInteger attempts = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    List<List<String>> paths = new ArrayList<>();
                    for (int i = 0; i < PATHS_PER_THREAD; i++) {
                        paths.add(List.of("t" + thread, "g" + (i % 10), "d" + i));
                    }
                    Collections.shuffle(paths, new Random(seed + thread));
                    start.await();
                    for (List<String> path : paths) {
                        DirectorySubspace d = db.run(tr -> {
                            attempts.incrementAndGet();
                            return dl.createOrOpen(tr, path).join();
                        });
                        assertThat(d.getPath()).isEqualTo(path);
                        handedOut.put(path, d.getKey());
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(handedOut).hasSize(THREADS * PATHS_PER_THREAD);
        System.out.println("  " + handedOut.size() + " createOrOpen calls took " + attempts.get() + " attempts");

        Map<List<String>, byte[]> all = walk(db, dl);
        // 8 thread parents, 10 groups each, and the leaves.
        assertThat(all).hasSize(THREADS + THREADS * 10 + THREADS * PATHS_PER_THREAD);
        for (Map.Entry<List<String>, byte[]> e : handedOut.entrySet()) {
            assertThat(all.get(e.getKey())).as("prefix of %s on reopening", e.getKey()).isEqualTo(e.getValue());
        }
        assertUniqueAndPrefixFree(all);
    }

    /**
     * Eight threads race to create the same 50 paths, each in its own order: each path must be
     * created once, so every thread is handed the same prefix for it.
     */
    @Test
    void racingCreateOrOpenOfOnePathCreatesItOnce() throws Exception {
        long seed = seed("racingCreateOrOpenOfOnePathCreatesItOnce");
        int pathCount = 50;
        try (Database db = Strata.inMemory()) {
            DirectoryLayer dl = new DirectoryLayer();
            List<Map<List<String>, byte[]>> perThread = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(THREADS);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Map<List<String>, byte[]> mine = new ConcurrentHashMap<>();
                    perThread.add(mine);
                    int thread = t;
                    futures.add(pool.submit(() -> {
                        List<List<String>> paths = new ArrayList<>();
                        for (int i = 0; i < pathCount; i++) {
                            paths.add(List.of("shared", "s" + i));
                        }
                        Collections.shuffle(paths, new Random(seed + thread));
                        start.await();
                        for (List<String> path : paths) {
                            mine.put(path, db.run(tr -> dl.createOrOpen(tr, path).join()).getKey());
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            Map<List<String>, byte[]> all = walk(db, dl);
            assertThat(all).hasSize(1 + pathCount);
            for (Map<List<String>, byte[]> mine : perThread) {
                assertThat(mine).hasSize(pathCount);
                for (Map.Entry<List<String>, byte[]> e : mine.entrySet()) {
                    assertThat(e.getValue()).as("prefix of %s", e.getKey()).isEqualTo(all.get(e.getKey()));
                }
            }
            assertUniqueAndPrefixFree(all);
        }
    }

    /** Every directory under the root, by path, with its prefix, read in fresh transactions. */
    private static Map<List<String>, byte[]> walk(Database db, DirectoryLayer dl) {
        Map<List<String>, byte[]> found = new TreeMap<>(DirectoryLayerConcurrencyTest::comparePaths);
        List<List<String>> todo = new ArrayList<>();
        todo.add(List.of());
        while (!todo.isEmpty()) {
            List<String> parent = todo.remove(todo.size() - 1);
            for (String child : dl.list(db, parent).join()) {
                List<String> path = new ArrayList<>(parent);
                path.add(child);
                found.put(List.copyOf(path), dl.open(db, path).join().getKey());
                todo.add(path);
            }
        }
        return found;
    }

    private static int comparePaths(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** No two prefixes equal, none a prefix of another: sorted, each must not start its successor. */
    private static void assertUniqueAndPrefixFree(Map<List<String>, byte[]> prefixes) {
        TreeMap<byte[], List<String>> byPrefix = new TreeMap<>(ByteArrayUtil.comparator());
        for (Map.Entry<List<String>, byte[]> e : prefixes.entrySet()) {
            List<String> clash = byPrefix.put(e.getValue(), e.getKey());
            assertThat(clash).as("directories %s and %s share prefix %s", clash, e.getKey(),
                    ByteArrayUtil.printable(e.getValue())).isNull();
        }
        byte[] previous = null;
        List<String> previousPath = null;
        for (Map.Entry<byte[], List<String>> e : byPrefix.entrySet()) {
            byte[] prefix = e.getKey();
            assertThat(prefix).isNotEmpty();
            assertThat(prefix[0]).as("prefix of %s is in the node subspace", e.getValue()).isNotEqualTo((byte) 0xfe);
            if (previous != null) {
                assertThat(ByteArrayUtil.startsWith(prefix, previous))
                        .as("prefix %s of %s starts with prefix %s of %s", ByteArrayUtil.printable(prefix), e.getValue(),
                                ByteArrayUtil.printable(previous), previousPath)
                        .isFalse();
            }
            previous = prefix;
            previousPath = e.getValue();
        }
    }
}
