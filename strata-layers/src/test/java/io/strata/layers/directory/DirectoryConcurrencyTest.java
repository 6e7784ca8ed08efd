package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.tuple.ByteArrayUtil;
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

import static org.assertj.core.api.Assertions.assertThat;

/** Many threads creating directories at once: every prefix unique and none a prefix of another. */
class DirectoryConcurrencyTest {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 100;

    @Test
    void eightThreadsCreateOrOpenDistinctPaths() throws Exception {
        run(false, FaultPolicy.none());
    }

    /** Half the threads use fdb-java's directory layer on the same database. */
    @Test
    void mixedWithOfficialDirectoryLayer() throws Exception {
        run(true, FaultPolicy.none());
    }

    /**
     * Under injected 1020 and 1021 (committed and not): createOrOpen is idempotent, so a
     * retry after a commit that did happen opens what it created — one prefix per path,
     * none handed out twice, none lost. The seed is printed; -Dstrata.seed=N replays it.
     */
    @Test
    void underCommitFaultsNoPrefixIsHandedOutTwiceAndNoneIsLost() throws Exception {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println("DirectoryConcurrencyTest faults seed " + seed);
        run(true, FaultPolicy.seeded(seed).notCommitted(0.05).unknownResultCommitted(0.03)
                .unknownResultNotCommitted(0.03).build());
    }

    private static void run(boolean mixed, FaultPolicy faults) throws Exception {
        try (Database db = Strata.builder().faults(faults).inMemory()) {
            StrataDirectoryLayer ours = new StrataDirectoryLayer();
            DirectoryLayer official = new DirectoryLayer();
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Callable<List<byte[]>>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                workers.add(() -> {
                    start.await();
                    List<byte[]> mine = new ArrayList<>();
                    for (int i = 0; i < PER_THREAD; i++) {
                        // Shared parents ("shared", "t<thread>") are created concurrently too.
                        List<String> path = List.of("shared", "t" + thread, "d" + i);
                        if (mixed && thread % 2 == 1) {
                            mine.add(db.run(tr -> official.createOrOpen(tr, path).join()).getKey());
                        } else {
                            mine.add(db.run(tr -> ours.createOrOpen(tr, path).join()).getKey());
                        }
                    }
                    return mine;
                });
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<byte[]> all = new ArrayList<>();
            try {
                for (Future<List<byte[]>> f : pool.invokeAll(workers)) {
                    all.addAll(f.get(120, TimeUnit.SECONDS));
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(all).hasSize(THREADS * PER_THREAD);
            // Add the parents' prefixes, then check all are prefix-free: in sorted order, no key starts with its predecessor.
            for (int t = 0; t < THREADS; t++) {
                all.add(ours.open(db, List.of("shared", "t" + t)).join().getKey());
            }
            all.add(ours.open(db, List.of("shared")).join().getKey());
            List<byte[]> sorted = new ArrayList<>(all);
            sorted.sort(ByteArrayUtil.comparator());
            for (int i = 1; i < sorted.size(); i++) {
                assertThat(ByteArrayUtil.startsWith(sorted.get(i), sorted.get(i - 1)))
                        .as("%s vs %s", ByteArrayUtil.printable(sorted.get(i - 1)), ByteArrayUtil.printable(sorted.get(i)))
                        .isFalse();
            }
            // Each path resolves, through both layers, to the prefix its creator was given.
            for (int t = 0; t < THREADS; t++) {
                List<String> names = ours.list(db, List.of("shared", "t" + t)).join();
                assertThat(names).hasSize(PER_THREAD);
                assertThat(official.list(db, List.of("shared", "t" + t)).join()).isEqualTo(names);
            }
            for (int t = 0; t < THREADS; t++) {
                for (int i = 0; i < PER_THREAD; i++) {
                    byte[] expected = all.get(t * PER_THREAD + i);
                    List<String> path = List.of("shared", "t" + t, "d" + i);
                    assertThat(ours.open(db, path).join().getKey()).isEqualTo(expected);
                    assertThat(official.open(db, path).join().getKey()).isEqualTo(expected);
                }
            }
            assertThat(ours.list(db, List.of()).join()).containsExactly("shared");
            assertThat(Collections.frequency(ours.list(db, List.of("shared")).join(), "t0")).isEqualTo(1);
        }
    }
}
