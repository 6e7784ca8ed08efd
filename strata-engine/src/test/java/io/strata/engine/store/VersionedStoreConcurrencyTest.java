package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;
import io.strata.engine.disk.RocksDiskStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store as the engine uses it: one writer applies batches of sets, clears and range clears,
 * publishes each version after applying it and prunes behind a moving floor, so that keys
 * come and go and the indexes split and unlink nodes; readers at published versions scan
 * ranges both ways and read points, and every answer they get while their version is still
 * readable equals the model's state at that version. Run over memory only, and over a disk
 * store whose catch-up writes and drops the pruned versions while the readers read.
 */
class VersionedStoreConcurrencyTest {
    private static final int KEYS = 3_000;
    private static final int VERSIONS = 4_000;
    /** Versions kept readable behind the newest. */
    private static final int WINDOW = 20;

    private static byte[] key(int n) {
        // Varied lengths; every fourth key a prefix of the next, to stress comparisons.
        return n % 4 == 0 ? ByteBuffer.allocate(3).put((byte) 'k').putShort((short) n).array()
                          : ByteBuffer.allocate(5).put((byte) 'k').putShort((short) n).put((byte) (n & 7)).put((byte) 1).array();
    }

    @Test
    void readersAlwaysSeeExactlyTheStateAtTheirVersion() throws Exception {
        run(new VersionedStore());
    }

    @Test
    void overADiskStoreReadersAlwaysSeeExactlyTheStateAtTheirVersion(@TempDir java.nio.file.Path dir) throws Exception {
        try (VersionedStore store = new VersionedStore(RocksDiskStore.open(dir, 8 << 20), "test-catch-up")) {
            run(store);
            assertThat(store.diskVersion()).as("the catch-up wrote pruned versions while the readers read").isGreaterThan(VERSIONS / 2);
        }
    }

    private static void run(VersionedStore store) throws Exception {
        long seed = System.nanoTime();
        System.out.println("VersionedStoreConcurrencyTest seed " + seed + (store.onDisk() ? " (disk)" : ""));
        Map<Long, TreeMap<byte[], byte[]>> states = new ConcurrentHashMap<>();
        TreeMap<byte[], byte[]> model = new TreeMap<>(ByteKeys.COMPARATOR);
        states.put(0L, new TreeMap<>(model));
        long[] published = {0};
        Object lock = new Object();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            SplittableRandom random = new SplittableRandom(seed + r + 1);
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        long newest;
                        synchronized (lock) {
                            newest = published[0];
                        }
                        if (newest >= VERSIONS) {
                            return;
                        }
                        long v = Math.max(0, newest - random.nextInt(WINDOW / 2));
                        TreeMap<byte[], byte[]> expected = states.get(v);
                        if (expected == null) {
                            continue; // forgotten meanwhile
                        }
                        int a = random.nextInt(KEYS);
                        int b = Math.min(KEYS, a + random.nextInt(600));
                        byte[] lo = key(a);
                        byte[] hi = key(b);
                        if (ByteKeys.compare(lo, hi) > 0) {
                            byte[] x = lo;
                            lo = hi;
                            hi = x;
                        }
                        boolean reverse = random.nextBoolean();
                        List<Map.Entry<byte[], byte[]>> seen = new ArrayList<>();
                        store.range(lo, hi, v, reverse).forEachRemaining(seen::add);
                        int p = random.nextInt(KEYS);
                        byte[] point = store.get(key(p), v);
                        if (v < store.oldestReadableVersion()) {
                            continue; // the engine refuses such a read: transaction_too_old
                        }
                        Map<byte[], byte[]> sub = reverse ? expected.subMap(lo, true, hi, false).descendingMap()
                                                          : expected.subMap(lo, true, hi, false);
                        Iterator<Map.Entry<byte[], byte[]>> want = sub.entrySet().iterator();
                        for (Map.Entry<byte[], byte[]> got : seen) {
                            Map.Entry<byte[], byte[]> w = want.hasNext() ? want.next() : null;
                            if (w == null || !Arrays.equals(w.getKey(), got.getKey()) || !Arrays.equals(w.getValue(), got.getValue())) {
                                throw new AssertionError("range at version " + v + " differs at " + Arrays.toString(got.getKey()));
                            }
                        }
                        if (want.hasNext()) {
                            throw new AssertionError("range at version " + v + " misses " + Arrays.toString(want.next().getKey()));
                        }
                        if (!Arrays.equals(point, expected.get(key(p)))) {
                            throw new AssertionError("point " + p + " at version " + v);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            readers.add(t);
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (long v = 1; v <= VERSIONS && failure.get() == null; v++) {
            int ops = 1 + random.nextInt(40);
            for (int i = 0; i < ops; i++) {
                int n = random.nextInt(KEYS);
                int kind = random.nextInt(100);
                if (kind < 70) {
                    byte[] value = ByteBuffer.allocate(8).putLong(v * 1000 + i).array();
                    store.set(key(n), value, v);
                    model.put(key(n), value);
                } else if (kind < 90) {
                    store.clear(key(n), v);
                    model.remove(key(n));
                } else {
                    byte[] lo = key(n);
                    byte[] hi = key(Math.min(KEYS - 1, n + random.nextInt(300)));
                    if (ByteKeys.compare(lo, hi) < 0) {
                        store.clearRange(lo, hi, v);
                        model.subMap(lo, true, hi, false).clear();
                    }
                }
            }
            states.put(v, new TreeMap<>(model));
            synchronized (lock) {
                published[0] = v; // publish only after the whole batch is applied, as the sequencer does
            }
            if (v % 5 == 0) {
                store.pruneBefore(v - WINDOW);
                for (long old = v - WINDOW - 5; old < v - WINDOW; old++) {
                    states.remove(old);
                }
            }
        }
        synchronized (lock) {
            published[0] = VERSIONS;
        }
        for (Thread t : readers) {
            t.join();
        }
        assertThat(failure.get()).isNull();
    }
}
