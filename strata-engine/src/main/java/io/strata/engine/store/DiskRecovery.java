package io.strata.engine.store;

import java.io.IOException;

/**
 * Recovery over a disk store: the log's records go straight to the disk store, in atomic
 * batches of whole records, each naming the version of its last record — not into the
 * window, which would hold them on the heap (five seconds of a bulk load is hundreds of
 * MiB) only for the catch-up to write them again. Nothing is lost if recovery is cut short:
 * the log is kept until the disk store is durable past it.
 *
 * <p>Not thread-safe: recovery runs on one thread before the engine starts.
 */
final class DiskRecovery implements RecoveryWrites {
    /** Bytes of keys and values per disk batch, about. */
    private static final long BATCH_BYTES = 16L << 20;

    private final DiskStore disk;
    private DiskStore.Batch batch;
    private long bytes;
    private long lastVersion = -1;

    DiskRecovery(DiskStore disk) {
        this.disk = disk;
        this.batch = disk.newBatch();
    }

    @Override
    public void set(byte[] key, byte[] value, long version) {
        batch.put(key, value);
        bytes += key.length + value.length;
    }

    @Override
    public void clear(byte[] key, long version) {
        batch.delete(key);
        bytes += key.length;
    }

    @Override
    public void clearRange(byte[] begin, byte[] end, long version) {
        batch.deleteRange(begin, end);
        bytes += begin.length + end.length;
    }

    @Override
    public void endOfRecord(long version) throws IOException {
        lastVersion = version;
        if (bytes >= BATCH_BYTES) {
            write();
        }
    }

    @Override
    public void finish() throws IOException {
        if (batch.size() > 0 && lastVersion >= 0) {
            write();
        }
        batch.close();
    }

    private void write() throws IOException {
        disk.write(batch, lastVersion);
        batch.close();
        batch = disk.newBatch();
        bytes = 0;
    }
}
