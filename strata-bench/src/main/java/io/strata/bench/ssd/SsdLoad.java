package io.strata.bench.ssd;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Loads every key of an {@link SsdData} through durable batches, the same way on every engine:
 * {@code loaders} threads, each writing batches of {@code batchKeys} consecutive indexes
 * (which {@link SsdData}'s keys scatter over the key space) and waiting for each to be durable
 * before the next. Batch {@code b} holds indexes {@code [b·K, (b+1)·K)} and belongs to loader
 * {@code b mod loaders}, so after a crash the batches loader {@code t} had acknowledged are
 * exactly {@code t, t + loaders, …} — the first {@link #acked}{@code (t)} of them.
 *
 * <p>Measured: from the first batch started to the last acknowledged, and each batch's latency.
 * Not included: anything an engine still does in the background once the last batch returned
 * (RocksDB's flushes and compactions, Strata's catch-up of the disk store), which the next
 * phase (close) shows.
 */
public final class SsdLoad {
    private final SsdTarget target;
    private final SsdData data;
    private final int loaders;
    private final int batchKeys;
    private final AtomicLongArray acked;

    public SsdLoad(SsdTarget target, SsdData data, int loaders, int batchKeys) {
        this.target = target;
        this.data = data;
        this.loaders = loaders;
        this.batchKeys = batchKeys;
        this.acked = new AtomicLongArray(loaders);
    }

    /**
     * @param seconds  from the first batch to the last acknowledged
     * @param refused  batches a Strata memory limit refused and that were retried
     * @param latency  batch latency in ns, retries included
     */
    public record Result(long keys, long bytes, long batches, double seconds, long refused, Histogram latency) {
        public double mibPerSecond() {
            return bytes / seconds / (1 << 20);
        }

        public double keysPerSecond() {
            return keys / seconds;
        }
    }

    /** Batches loader {@code t} has had acknowledged so far. */
    public long acked(int t) {
        return acked.get(t);
    }

    public int loaders() {
        return loaders;
    }

    /** Total batches: the last may be short. */
    public long batches() {
        return (data.count() + batchKeys - 1) / batchKeys;
    }

    /** The first index of batch {@code b}. */
    public long firstOf(long b) {
        return b * batchKeys;
    }

    /** The keys of batch {@code b}. */
    public int sizeOf(long b) {
        return (int) Math.min(batchKeys, data.count() - firstOf(b));
    }

    /** Keys acknowledged so far, over all loaders. */
    public long ackedKeys() {
        long batches = 0;
        for (int t = 0; t < loaders; t++) {
            batches += acked.get(t);
        }
        return Math.min(data.count(), batches * batchKeys);
    }

    /** Runs the loaders to the end; the first failure of any loader is thrown once all stopped. */
    public Result run() {
        List<Thread> threads = new ArrayList<>();
        List<Histogram> latencies = new ArrayList<>();
        long[] refused = new long[loaders];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long total = batches();
        long start = System.nanoTime();
        for (int t = 0; t < loaders; t++) {
            int loader = t;
            Histogram latency = new Histogram(3);
            latencies.add(latency);
            Thread thread = new Thread(() -> {
                try {
                    for (long b = loader; b < total && failure.get() == null; b += loaders) {
                        long t0 = System.nanoTime();
                        refused[loader] += target.writeBatch(data, firstOf(b), sizeOf(b));
                        latency.recordValue(System.nanoTime() - t0);
                        acked.incrementAndGet(loader);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "ssd-loader-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failure.get() != null) {
            throw new IllegalStateException("a loader failed: " + failure.get(), failure.get());
        }
        Histogram all = new Histogram(3);
        latencies.forEach(all::add);
        long refusedTotal = 0;
        for (long r : refused) {
            refusedTotal += r;
        }
        return new Result(data.count(), data.bytesOf(data.count()), total, seconds, refusedTotal, all);
    }
}
