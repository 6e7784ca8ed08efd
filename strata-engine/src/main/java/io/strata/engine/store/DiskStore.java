package io.strata.engine.store;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * The ordered store under the MVCC window: the newest version of every key as of
 * {@link #appliedVersion()}, written only by the store's catch-up thread (or recovery), in
 * version order, one atomic batch at a time. On disk under {@link io.strata.Storage#SSD}
 * ({@code RocksDiskStore}); on the heap under {@link io.strata.Storage#MEMORY}
 * ({@link PackedStore}, not {@link #durable}).
 *
 * <p>Contract an implementation keeps: a {@link #write} is atomic and, once it returns,
 * visible to every later {@link #get} and {@link #cursor}; a durable store's crash loses at
 * most the writes after the last {@link #makeDurable}, never part of one, and
 * {@link #appliedVersion()} after reopening names the last batch kept; a cursor reads one
 * consistent state (the one when it was opened) and must be closed. {@code DiskStoreContract}
 * (tests) holds every implementation to it.
 */
public interface DiskStore extends AutoCloseable {
    /** The value of {@code key}, or null when absent. Any thread. */
    byte[] get(byte[] key);

    /** {@link #get(byte[])}, given {@code hash == ByteKeys.hash(key)}, which a store indexed by it need not compute again. */
    default byte[] get(byte[] key, int hash) {
        return get(key);
    }

    /** Keys of {@code [lo, hi)} in one direction, as of the moment it opens; close it. */
    Cursor cursor(byte[] lo, byte[] hi, boolean reverse);

    /** Whether {@code [lo, hi)} holds any key. */
    boolean anyKeyIn(byte[] lo, byte[] hi);

    /** A batch to fill and {@link #write}. */
    Batch newBatch();

    /** Applies {@code batch} atomically and records {@code version} as the version the store is now at. */
    void write(Batch batch, long version) throws IOException;

    /** A hint before recovery replays about {@code bytes} of log (see {@link RecoveryWrites#expectLogBytes}); writer only. */
    default void expectLogBytes(long bytes) {
    }

    /** A hint before recovery writes about {@code keys} keys (see {@link RecoveryWrites#expectKeys}); writer only. */
    default void expectKeys(long keys) {
    }

    /** The version of the last batch written (or kept by the last crash); 0 for a new store. */
    long appliedVersion();

    /** Makes every batch written so far survive a crash; returns when it has. */
    void makeDurable() throws IOException;

    /**
     * At a clean close, once every write is durable: waits, at most {@code timeoutMillis}, for
     * the store's own background reorganisation of what was just written to finish, so the
     * next process does not start with it (for RocksDB: compactions, which would run beside
     * that process's first reads, and whose level-0 files every range read seeks). Changes
     * no data; returns whether the store settled in time (if not, it goes on after reopening).
     */
    default boolean settle(long timeoutMillis) throws InterruptedException {
        return true;
    }

    /**
     * Whether what this store holds survives the process ({@link #makeDurable} makes it so):
     * true on disk; false for {@link PackedStore}, the memory engine's store, whose data the
     * log and checkpoints keep.
     */
    default boolean durable() {
        return true;
    }

    /**
     * The heap this store takes for its data, for the memory limit: 0 on disk (its cache is
     * bounded), the whole store for {@link PackedStore}.
     */
    default long heapBytes() {
        return 0;
    }

    /** The approximate bytes the keys and values of {@code [lo, hi)} take on disk. */
    long approximateBytes(byte[] lo, byte[] hi);

    @Override
    void close();

    /**
     * A write batch: puts, deletes and range deletes, applied in the order given. A range
     * delete whose begin is not below its end deletes nothing. The batch may keep the arrays
     * it is given until {@link #write} or {@link #clear}: do not change them meanwhile.
     */
    interface Batch extends AutoCloseable {
        void put(byte[] key, byte[] value);

        void delete(byte[] key);

        void deleteRange(byte[] begin, byte[] end);

        /** Operations added so far. */
        int size();

        /**
         * Empties the batch for reuse, keeping the memory it grew to: a fresh batch of megabytes
         * touches fresh pages, and on a virtual machine each first touch is a trap (writing
         * the log's records into new batches spent most of a recovery's CPU copying into them).
         */
        void clear();

        @Override
        void close();
    }

    /** An open read over a key range; releases the disk state it reads when closed. */
    interface Cursor extends Iterator<Map.Entry<byte[], byte[]>>, AutoCloseable {
        @Override
        void close();
    }
}
