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
