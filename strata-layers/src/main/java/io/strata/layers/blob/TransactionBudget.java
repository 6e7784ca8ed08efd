package io.strata.layers.blob;

/**
 * How many chunks the store puts in one transaction of its own. A chunk costs a transaction
 * its value plus, per FoundationDB's size accounting, its key (in the mutation and in the write
 * conflict range, about twice again) and fixed overheads (40 bytes a mutation, 32 a range);
 * {@link #PER_CHUNK_ALLOWANCE} plus three keys covers them, so a batch of tiny chunks is
 * bounded by its real size, not by its values alone.
 */
final class TransactionBudget {
    static final int PER_CHUNK_ALLOWANCE = 100;

    private final int transactionBytes;
    private final int maxChunkKeyBytes;

    TransactionBudget(int transactionBytes, int maxChunkKeyBytes) {
        this.transactionBytes = transactionBytes;
        this.maxChunkKeyBytes = maxChunkKeyBytes;
    }

    /** Chunks of {@code chunkSize} bytes per transaction: at least one. */
    int chunksPerTransaction(int chunkSize) {
        long cost = (long) chunkSize + 3L * maxChunkKeyBytes + PER_CHUNK_ALLOWANCE;
        return (int) Math.max(1, transactionBytes / cost);
    }

    /** Value bytes per transaction with chunks of {@code chunkSize}: whole chunks only. */
    int bytesPerTransaction(int chunkSize) {
        return chunksPerTransaction(chunkSize) * chunkSize;
    }
}
