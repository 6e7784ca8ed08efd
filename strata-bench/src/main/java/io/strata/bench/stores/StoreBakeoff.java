package io.strata.bench.stores;

import io.strata.bench.ssd.SsdData;
import io.strata.engine.disk.RocksDiskStore;
import io.strata.engine.store.DiskStore;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * {@code strata bench stores}: the embedded ordered stores the disk engine could stand on,
 * each driven through {@link DiskStore} the way the engine drives its own — the question issue
 * 19 asks ("choose the on-disk store by measurement"). Per store, one after the other on the
 * same data ({@link SsdData}: 16-byte keys spread over the key space, incompressible values):
 * <ol>
 *   <li><b>load</b>: one thread writes batches of {@code batchKeys} keys in index order (keys
 *       all over the key space), each {@link DiskStore#write} one atomic batch with the next
 *       version, {@link DiskStore#makeDurable} after every {@code durableEvery} batches and at
 *       the end — what the engine's catch-up thread does behind its own log;</li>
 *   <li><b>close, reopen</b> (to the first read), then a sample of keys read back and checked;</li>
 *   <li><b>point reads</b> of random keys and <b>100-key scans</b> from random keys by
 *       {@code clients} threads, {@code seconds} each after a warm-up.</li>
 * </ol>
 * {@code rocksdb} is the engine's {@link RocksDiskStore} (block cache of {@code cacheBytes},
 * outside the heap); {@code mvstore} H2's MVStore ({@link MvStoreDiskStore}, a page cache of
 * {@code cacheBytes} on the heap); {@code lmdb} LMDB ({@link LmdbDiskStore}, the page cache of
 * the operating system, which no option bounds). Not a durability test: no crash is injected.
 */
public final class StoreBakeoff {
    /** What one run measures. */
    public record Config(Path dir, long dataBytes, int valueBytes, long cacheBytes, int batchKeys, int durableEvery, int clients,
                         double seconds, double warmup, int verifyKeys, List<String> stores) {
    }

    /** One store's figures. */
    public record Result(String store, double loadMiBps, double loadKeysPerSec, double closeSec, double reopenSec,
                         long diskBytes, double readsPerSec, double scansPerSec) {
    }

    private StoreBakeoff() {
    }

    public static List<Result> run(Config c, PrintWriter out) throws Exception {
        SsdData data = SsdData.ofBytes(c.dataBytes(), c.valueBytes());
        List<Result> results = new ArrayList<>();
        for (String name : c.stores()) {
            Path dir = c.dir().resolve(name);
            deleteTree(dir);
            Files.createDirectories(dir);
            out.printf(Locale.ROOT, "%s: loading %,d keys (%.2f GiB)%n", name, data.count(), data.bytesOf(data.count()) / (double) (1L << 30));
            out.flush();
            DiskStore store = open(name, dir, c.cacheBytes());
            long t0 = System.nanoTime();
            long version = 0;
            try (DiskStore.Batch batch = store.newBatch()) {
                for (long i = 0; i < data.count(); ) {
                    batch.clear();
                    for (int k = 0; k < c.batchKeys() && i < data.count(); k++, i++) {
                        batch.put(data.key(i), data.value(i));
                    }
                    store.write(batch, ++version);
                    if (version % c.durableEvery() == 0) {
                        store.makeDurable();
                    }
                }
            }
            store.makeDurable();
            double loadSec = (System.nanoTime() - t0) / 1e9;
            long t1 = System.nanoTime();
            store.close();
            double closeSec = (System.nanoTime() - t1) / 1e9;
            long diskBytes = sizeOf(dir);
            long t2 = System.nanoTime();
            store = open(name, dir, c.cacheBytes());
            store.get(data.key(0));
            double reopenSec = (System.nanoTime() - t2) / 1e9;
            try {
                verify(store, data, c.verifyKeys(), version);
                double reads = timed(c, data, store, false);
                double scans = timed(c, data, store, true);
                double mib = data.bytesOf(data.count()) / (double) (1 << 20);
                Result r = new Result(name, mib / loadSec, data.count() / loadSec, closeSec, reopenSec, diskBytes, reads, scans);
                out.printf(Locale.ROOT, "%s: load %.1f MiB/s (%,.0f keys/s), close %.2f s, reopen %.2f s, %,d bytes on disk, "
                                + "%,.0f point reads/s, %,.0f scans/s%n",
                        name, r.loadMiBps(), r.loadKeysPerSec(), closeSec, reopenSec, diskBytes, reads, scans);
                out.flush();
                results.add(r);
            } finally {
                store.close();
                deleteTree(dir);
            }
        }
        return results;
    }

    static DiskStore open(String name, Path dir, long cacheBytes) throws IOException {
        return switch (name) {
            case "rocksdb" -> RocksDiskStore.open(dir, cacheBytes);
            case "mvstore" -> MvStoreDiskStore.open(dir, cacheBytes);
            case "lmdb" -> LmdbDiskStore.open(dir);
            default -> throw new IllegalArgumentException("unknown store '" + name + "': rocksdb, mvstore or lmdb");
        };
    }

    private static void verify(DiskStore store, SsdData data, int keys, long version) {
        if (store.appliedVersion() != version) {
            throw new IllegalStateException("applied version " + store.appliedVersion() + " after reopening, expected " + version);
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int n = 0; n < keys; n++) {
            long i = random.nextLong(data.count());
            byte[] v = store.get(data.key(i));
            if (v == null || !data.isValueOf(i, v)) {
                throw new IllegalStateException("key " + i + " read back wrong after reopening");
            }
        }
    }

    /** Operations per second of {@code clients} threads for {@code seconds}, after {@code warmup}. */
    private static double timed(Config c, SsdData data, DiskStore store, boolean scans) throws InterruptedException {
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder ops = new LongAdder();
        // A client that fails must fail the cell, not leave a figure counted by the others.
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < c.clients(); t++) {
            SplittableRandom random = new SplittableRandom(100 + t);
            Thread thread = new Thread(() -> {
                try {
                    clientLoop(data, store, scans, random, stop, counting, ops);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                    stop.set(true);
                }
            }, "bakeoff-client-" + t);
            thread.start();
            threads.add(thread);
        }
        Thread.sleep((long) (c.warmup() * 1000));
        counting.set(true);
        long t0 = System.nanoTime();
        Thread.sleep((long) (c.seconds() * 1000));
        long counted = ops.sum();
        double sec = (System.nanoTime() - t0) / 1e9;
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException((scans ? "scans" : "point reads") + " failed: " + failure.get().getMessage(), failure.get());
        }
        return counted / sec;
    }

    /** One client: random point reads or 100-key scans until {@code stop}, counted once {@code counting}. */
    private static void clientLoop(SsdData data, DiskStore store, boolean scans, SplittableRandom random, AtomicBoolean stop,
                                   AtomicBoolean counting, LongAdder ops) {
        while (!stop.get()) {
            byte[] key = data.key(random.nextLong(data.count()));
            if (scans) {
                try (DiskStore.Cursor cursor = store.cursor(key, SsdData.END, false)) {
                    for (int n = 0; n < 100 && cursor.hasNext(); n++) {
                        cursor.next();
                    }
                }
            } else if (store.get(key) == null) {
                throw new IllegalStateException("a loaded key is missing");
            }
            if (counting.get()) {
                ops.increment();
            }
        }
    }

    private static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
