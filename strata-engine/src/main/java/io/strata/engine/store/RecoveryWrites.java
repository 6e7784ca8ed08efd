package io.strata.engine.store;

import java.io.IOException;

/**
 * Where recovery replays the log's records: {@link VersionedStore#recoveryWrites()}. A
 * record's writes, then {@link #endOfRecord} with its version; {@link #finish} after the last.
 * Nothing reads the store while recovery runs, and it keeps no history: a restarted database
 * reads from the last recovered version on.
 */
public interface RecoveryWrites extends AutoCloseable {
    /**
     * A hint, before any write: about {@code keys} keys follow (a checkpoint's entry count), so
     * a store may size its indexes once instead of growing them through the replay.
     */
    default void expectKeys(long keys) throws IOException {
    }

    /**
     * A hint, after the checkpoint and before the log's records: about {@code bytes} of log
     * follow, so that a store which knows its entries' average size may size its indexes for
     * the keys they may add at once, rather than growing them through the replay. Records that
     * overwrite present keys make it an overestimate; a store bounds what it reserves.
     */
    default void expectLogBytes(long bytes) throws IOException {
    }

    void set(byte[] key, byte[] value, long version);

    void clear(byte[] key, long version);

    void clearRange(byte[] begin, byte[] end, long version);

    /** The record of {@code version} is complete. */
    void endOfRecord(long version) throws IOException;

    /** Every record is replayed. */
    void finish() throws IOException;

    /** Releases what the replay held, after {@link #finish} or instead of it when the replay failed. */
    @Override
    default void close() {
    }
}
