package io.strata.engine.store;

import io.strata.engine.util.GuardedBy;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Brings the disk store up to the window's floor in the background: the writes that left the
 * MVCC window, handed over by the sequencer in version order ({@link #submit}), are written
 * to the {@link DiskStore} in that order, one atomic disk batch per round; once no range read
 * that began before the write is still running ({@link ReaderEpochs}), they are handed back
 * ({@link #pollWritten}) for the sequencer to drop from memory.
 *
 * <p>Commits never wait for this thread: the log already made them durable. If it falls
 * behind, the window's versions stay in memory longer, which the store's byte count (and so
 * the memory limit) sees. A failed disk write is retried; until it succeeds nothing is
 * dropped from memory and nothing is lost.
 *
 * <p>Concurrency: {@link #pending} is handed over under {@link #lock}; everything a batch
 * refers to (chains, nodes, their values) was published by the sequencer before it handed the
 * batch over, and no one changes a value a batch still has to write: the sequencer drops a
 * first node's value only when it drops a later node of the same key, which comes back from
 * here after it. The written batches return through a concurrent queue.
 */
final class CatchUp implements AutoCloseable {
    /**
     * Bytes of keys and values per disk write, about: a catch-up that fell behind writes many
     * batches of this size, not one huge one. A batch larger than RocksDB's memtable (64 MiB)
     * becomes one oversized level-0 file, and those made scans after a bulk load slow.
     */
    static final long MAX_BYTES_PER_WRITE = 8L << 20;
    private static final System.Logger LOG = System.getLogger(CatchUp.class.getName());

    /** Writes that left the window together: the entries the sequencer took in one pruning. */
    static final class Batch {
        VersionChain[] chains;
        VersionNode[] nodes;
        int count;
        /** Bytes of the keys and values added, about. */
        long bytes;
        /** The version of the last node added. */
        long lastVersion = Long.MIN_VALUE;
        final List<RangeClears.Clear> clears = new ArrayList<>(0);
        /** The version the disk is at once this batch is written: every write up to it is in this batch or an earlier one. */
        long version;

        Batch(int capacity) {
            chains = new VersionChain[Math.max(capacity, 4)];
            nodes = new VersionNode[chains.length];
        }

        void add(VersionChain chain, VersionNode node) {
            if (count == chains.length) {
                chains = java.util.Arrays.copyOf(chains, count * 2);
                nodes = java.util.Arrays.copyOf(nodes, count * 2);
            }
            chains[count] = chain;
            nodes[count++] = node;
            byte[] value = node.value;
            bytes += chain.key.length + (value == null ? 0 : value.length);
            lastVersion = node.version;
        }
    }

    private final DiskStore disk;
    private final ReaderEpochs epochs;
    private final Object lock = new Object();
    /** Handed over by the sequencer, not yet written. */
    @GuardedBy("lock")
    private final ArrayDeque<Batch> pending = new ArrayDeque<>();
    /** Written and past the grace period: the sequencer may drop them from memory. */
    private final ConcurrentLinkedQueue<Batch> written = new ConcurrentLinkedQueue<>();
    /** Bytes of the batches in {@link #pending}. */
    @GuardedBy("lock")
    private long pendingBytes;
    /** Whether this thread holds batches taken from {@link #pending} and not yet handed back. */
    @GuardedBy("lock")
    private boolean busy;
    /**
     * How long after a write the next one waits to gather more (0: none). Writing a round to
     * RocksDB costs about the same per write however small the round; a {@link PackedStore}
     * rebuilds each leaf a round touches, so a round of many writes shares those rebuilds.
     */
    private final long gatherNanos;
    /**
     * Bytes of keys and values per round, about: {@link #MAX_BYTES_PER_WRITE} for RocksDB; more
     * for a {@link PackedStore}, where a round that fell behind shares each leaf rebuild among
     * more of its keys the larger it is.
     */
    private final long maxBytesPerRound;
    /** Set by {@link #hurry}: write what is pending without gathering more. */
    @GuardedBy("lock")
    private boolean hurried;
    private final Thread thread;
    private volatile boolean closed;
    /** The disk batch, reused from write to write (see {@link DiskStore.Batch#clear}); this thread only. */
    private final DiskStore.Batch out;

    CatchUp(DiskStore disk, ReaderEpochs epochs, String name, long gatherMillis, long maxBytesPerRound) {
        this.disk = disk;
        this.epochs = epochs;
        this.maxBytesPerRound = maxBytesPerRound;
        this.gatherNanos = gatherMillis * 1_000_000L;
        this.out = disk.newBatch();
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Sequencer: hands over writes that left the window, after every earlier batch. */
    void submit(Batch batch) {
        synchronized (lock) {
            boolean idle = pending.isEmpty();
            pending.add(batch);
            pendingBytes += batch.bytes;
            if (idle || pendingBytes >= maxBytesPerRound) {
                lock.notifyAll();
            }
        }
    }

    /** Sequencer: the next written batch whose writes may leave memory, or null. */
    Batch pollWritten() {
        return written.poll();
    }

    /** Sequencer: writes what is pending at once, without waiting to gather more. */
    void hurry() {
        synchronized (lock) {
            hurried = true;
            lock.notifyAll();
        }
    }

    /** Whether every batch handed over has been written and handed back. */
    boolean idle() {
        synchronized (lock) {
            return pending.isEmpty() && !busy;
        }
    }

    private void run() {
        try {
            catchUp();
        } finally {
            out.close();
        }
    }

    private void catchUp() {
        long lastWrite = System.nanoTime();
        while (!closed) {
            List<Batch> take = new ArrayList<>();
            synchronized (lock) {
                try {
                    while (pending.isEmpty() && !closed) {
                        lock.wait(100);
                    }
                    for (long now; !hurried && !closed && pendingBytes < maxBytesPerRound
                            && (now = System.nanoTime()) - lastWrite < gatherNanos; ) {
                        lock.wait(Math.max(1, (gatherNanos - (now - lastWrite)) / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return;
                }
                hurried = false;
                long bytes = 0;
                while (!pending.isEmpty() && (take.isEmpty() || bytes < maxBytesPerRound)) {
                    Batch b = pending.poll();
                    bytes += b.bytes;
                    take.add(b);
                }
                pendingBytes -= bytes;
                busy = !take.isEmpty();
            }
            lastWrite = System.nanoTime();
            if (take.isEmpty()) {
                continue;
            }
            if (!writeUntilDone(take)) {
                return;
            }
            long previous = epochs.flip();
            // Range reads end within microseconds, but a checkpoint's takes seconds: back off.
            for (long park = 20_000; !epochs.drained(previous); park = Math.min(park * 2, 1_000_000)) {
                if (closed) {
                    return;
                }
                LockSupport.parkNanos(park);
            }
            written.addAll(take);
            synchronized (lock) {
                busy = false;
            }
        }
    }

    /** Writes the batches as one disk batch, retrying a failure every second; false when closed first. */
    private boolean writeUntilDone(List<Batch> take) {
        long version = take.get(take.size() - 1).version;
        while (!closed) {
            try {
                out.clear();
                for (Batch b : take) {
                    fill(out, b);
                }
                disk.write(out, version);
                // Written: let go of the round's keys and values (the batch is reused, and a
                // round can hold a second's writes).
                out.clear();
                return true;
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "writing to the disk store failed; retrying in 1 s (the log keeps everything)", e);
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * One batch's writes in version order; a version's range clears before its point writes,
     * since a key's node already shows what the version left it with (a clear of a present key
     * wrote a tombstone on it, a later set replaced that).
     */
    private static void fill(DiskStore.Batch out, Batch b) {
        int c = 0;
        for (int i = 0; i < b.count; i++) {
            VersionNode node = b.nodes[i];
            while (c < b.clears.size() && b.clears.get(c).version() <= node.version) {
                RangeClears.Clear clear = b.clears.get(c++);
                out.deleteRange(clear.begin(), clear.end());
            }
            if (node.replaced) {
                continue; // a later write of the same version replaced it: that one has an entry too
            }
            byte[] value = node.value();
            if (value == null) {
                out.delete(b.chains[i].key);
            } else {
                out.put(b.chains[i].key, value);
            }
        }
        for (; c < b.clears.size(); c++) {
            out.deleteRange(b.clears.get(c).begin(), b.clears.get(c).end());
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
