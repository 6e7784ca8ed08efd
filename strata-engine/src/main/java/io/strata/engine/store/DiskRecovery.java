package io.strata.engine.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Recovery over a disk store: the log's records go straight to the disk store, in atomic
 * batches of whole records, each naming the version of its last record — not into the
 * window, which would hold them on the heap (five seconds of a bulk load is hundreds of
 * MiB) only for the catch-up to write them again. Nothing is lost if recovery is cut short:
 * the log is kept until the disk store is durable past it.
 *
 * <p>Two batches take turns: while a writer thread applies one to the disk store (for
 * RocksDB, inserting into its memtable: half of a recovery's CPU), the replaying thread parses
 * the next records into the other. Batches are written one at a time, in order, so the disk
 * store sees exactly the sequence it would from one thread.
 *
 * <p>Not thread-safe: recovery runs on one thread before the engine starts; the writer thread
 * touches only the batch handed to it, until its write completes.
 */
final class DiskRecovery implements RecoveryWrites {
    /** Bytes of keys and values per disk batch, about. */
    private static final long BATCH_BYTES = 16L << 20;

    private final DiskStore disk;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "strata-recovery-writer");
        t.setDaemon(true);
        return t;
    });
    /** The batch being filled, and the other one, written (or being written) by {@link #writer}. */
    private DiskStore.Batch filling;
    private DiskStore.Batch other;
    /** The write of {@link #other} in progress, or null. */
    private Future<?> inFlight;
    private long bytes;
    private long lastVersion = -1;

    DiskRecovery(DiskStore disk) {
        this.disk = disk;
        this.filling = disk.newBatch();
        this.other = disk.newBatch();
    }

    @Override
    public void expectKeys(long keys) throws IOException {
        awaitWrite(); // the disk store's writer is the writer thread while a write is in flight
        disk.expectKeys(keys);
    }

    @Override
    public void expectLogBytes(long bytes) throws IOException {
        awaitWrite();
        disk.expectLogBytes(bytes);
    }

    @Override
    public void set(byte[] key, byte[] value, long version) {
        filling.put(key, value);
        bytes += key.length + value.length;
    }

    @Override
    public void clear(byte[] key, long version) {
        filling.delete(key);
        bytes += key.length;
    }

    @Override
    public void clearRange(byte[] begin, byte[] end, long version) {
        filling.deleteRange(begin, end);
        bytes += begin.length + end.length;
    }

    @Override
    public void endOfRecord(long version) throws IOException {
        lastVersion = version;
        if (bytes >= BATCH_BYTES) {
            handOver();
        }
    }

    @Override
    public void finish() throws IOException {
        if (filling.size() > 0 && lastVersion >= 0) {
            handOver();
        }
        awaitWrite();
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            // A failed replay may leave a write running; its batch is freed only after it ends.
            while (!writer.awaitTermination(1, java.util.concurrent.TimeUnit.SECONDS)) {
                System.getLogger(DiskRecovery.class.getName()).log(System.Logger.Level.INFO, "waiting for a recovery write to end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // the batches are left to the writer rather than freed under it
        }
        filling.close();
        other.close();
    }

    /** Waits for the previous write, then hands the filled batch to the writer and fills the other. */
    private void handOver() throws IOException {
        awaitWrite();
        DiskStore.Batch full = filling;
        long version = lastVersion;
        filling = other;
        other = full;
        filling.clear();
        bytes = 0;
        inFlight = writer.submit(() -> {
            disk.write(full, version);
            return null;
        });
    }

    private void awaitWrite() throws IOException {
        if (inFlight == null) {
            return;
        }
        try {
            inFlight.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while recovering into the disk store");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("writing recovered records to the disk store failed", cause);
        } finally {
            inFlight = null;
        }
    }
}
