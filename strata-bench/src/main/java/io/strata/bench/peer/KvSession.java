package io.strata.bench.peer;

import java.util.concurrent.CompletableFuture;

/**
 * One client's view of a {@link KvPeer}. Not thread-safe: one session per thread.
 *
 * <p>Reads happen in a read transaction that the session opens on the first {@link #read}
 * and keeps until {@link #endRead}, so a caller chooses how many reads share a transaction.
 * Reads are serializable (they would conflict if the transaction wrote and committed), as a
 * read in a read-write transaction is.
 */
public interface KvSession extends AutoCloseable {
    /** Reads {@code key} in the current read transaction, opening one if needed. */
    byte[] read(byte[] key);

    /** Ends the current read transaction, if any; the next read opens a new one. */
    void endRead();

    /** One write transaction: begin, set {@code key}, commit, wait; retried on conflict. */
    void write(byte[] key, byte[] value);

    /**
     * The same transaction as {@link #write}, without waiting for the commit. An engine
     * without asynchronous commit does the work before returning a completed future.
     */
    CompletableFuture<Void> writeAsync(byte[] key, byte[] value);

    /**
     * One read-write transaction: read {@code key}, set it to {@code value}, commit, wait;
     * retried on conflict.
     *
     * @return the number of attempts, 1 when the first commit succeeded
     */
    int readModifyWrite(byte[] key, byte[] value);

    @Override
    void close();
}
