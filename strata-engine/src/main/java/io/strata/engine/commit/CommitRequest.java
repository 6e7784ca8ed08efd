package io.strata.engine.commit;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a transaction sends to the commit pipeline: its read version, its conflict ranges,
 * and its mutations.
 *
 * <p>The pipeline completes {@link #result} on the sequencer thread; the client side moves
 * completion to the transaction's executor before user code sees it.
 */
public final class CommitRequest {
    final long readVersion;
    final ConflictRanges readConflicts;
    final ConflictRanges writeConflicts;
    final List<Mutation> mutations;
    final CompletableFuture<CommitResult> result = new CompletableFuture<>();
    /** Set by the sequencer when accepted: the last two bytes of the versionstamp. */
    int orderInBatch;
    /** Set by the sequencer: where this request's plain sets begin in the batch's key hashes. */
    int firstSet;

    /**
     * @param readVersion    the read version, or -1 when the transaction never read
     * @param readConflicts  read conflict ranges
     * @param writeConflicts write conflict ranges
     * @param mutations      mutations in issue order
     */
    public CommitRequest(long readVersion, ConflictRanges readConflicts, ConflictRanges writeConflicts, List<Mutation> mutations) {
        this.readVersion = readVersion;
        this.readConflicts = readConflicts;
        this.writeConflicts = writeConflicts;
        this.mutations = mutations;
    }

    public CompletableFuture<CommitResult> result() {
        return result;
    }
}
