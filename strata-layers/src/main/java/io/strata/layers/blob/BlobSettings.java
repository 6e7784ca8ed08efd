package io.strata.layers.blob;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link BlobStore} cuts values and transactions.
 *
 * @param chunkSize        bytes per chunk (1 to 100,000, FoundationDB's value limit), used
 *                         for values written from now on; a stored value keeps the chunk size
 *                         it was written with (its head records it), so this may change
 *                         between runs. Default {@value #DEFAULT_CHUNK_SIZE}, chosen by
 *                         measurement (see {@link BlobStore}).
 * @param transactionBytes the most bytes the store puts in one transaction of its own: the
 *                         chunk values it stages or reads per transaction, each chunk counted
 *                         with an allowance for its key and bookkeeping (see
 *                         {@link BlobStore#chunksPerTransaction()}). Also the largest value
 *                         the {@code Database}-level writes store in one transaction rather
 *                         than staged. At least one chunk's worth, at most
 *                         {@value #MAX_TRANSACTION_BYTES} (under FoundationDB's 10,000,000
 *                         bytes, leaving room for the head, the staging record and conflict
 *                         ranges). Default {@value #DEFAULT_TRANSACTION_BYTES}: FoundationDB
 *                         advises transactions under 1 MB; the engine does not care.
 * @param lease            how long a staging writer may go without a transaction before its
 *                         staging counts as abandoned and cleanup may remove it, measured in
 *                         database versions (1,000,000 a second). Default 60 s.
 */
public record BlobSettings(int chunkSize, int transactionBytes, Duration lease) {
    /** FoundationDB's largest value. */
    public static final int MAX_CHUNK_SIZE = 100_000;
    public static final int DEFAULT_CHUNK_SIZE = 16_384;
    public static final int DEFAULT_TRANSACTION_BYTES = 1_000_000;
    public static final int MAX_TRANSACTION_BYTES = 9_000_000;
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

    public BlobSettings {
        Objects.requireNonNull(lease);
        if (chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunkSize must be in [1, " + MAX_CHUNK_SIZE + "], got " + chunkSize);
        }
        if (transactionBytes < chunkSize || transactionBytes > MAX_TRANSACTION_BYTES) {
            throw new IllegalArgumentException("transactionBytes must be in [chunkSize, " + MAX_TRANSACTION_BYTES + "], got "
                    + transactionBytes);
        }
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive, got " + lease);
        }
    }

    /** The defaults. */
    public static BlobSettings defaults() {
        return new BlobSettings(DEFAULT_CHUNK_SIZE, DEFAULT_TRANSACTION_BYTES, DEFAULT_LEASE);
    }

    public BlobSettings withChunkSize(int chunkSize) {
        return new BlobSettings(chunkSize, Math.max(transactionBytes, chunkSize), lease);
    }

    public BlobSettings withTransactionBytes(int transactionBytes) {
        return new BlobSettings(chunkSize, transactionBytes, lease);
    }

    public BlobSettings withLease(Duration lease) {
        return new BlobSettings(chunkSize, transactionBytes, lease);
    }

    /** The lease in database versions. */
    long leaseVersions() {
        return lease.toNanos() / 1_000;
    }
}
