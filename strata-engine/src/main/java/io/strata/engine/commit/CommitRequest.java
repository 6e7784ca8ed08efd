package io.strata.engine.commit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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
    /**
     * What the status counters count for this request, when it differs from {@link #mutations}:
     * the transaction's mutations as issued, of which the request carries only those no later
     * write of the same key overwrote. -1: count {@link #mutations}.
     */
    int countedMutations = -1;
    long countedMutationBytes;
    /** Set by the sequencer when accepted: the last two bytes of the versionstamp. */
    int orderInBatch;
    /** Set by the sequencer: where this request's plain sets begin in the batch's key hashes. */
    int firstSet;
    /** Whether the sequencer reports which read conflict ranges conflicted ({@code report_conflicting_keys}). */
    private boolean reportConflictingKeys;
    /**
     * Set by the sequencer before it fails the request with {@code not_committed}, when asked to
     * report: the indices of the conflicting ranges in {@link #readConflicts}. Read after
     * {@link #result} completed, which orders the write before the read.
     */
    int[] conflictingReads;
    /**
     * Whether the client may still withdraw this request while it waits in the sequencer's
     * queue ({@link #withdrawableUntilTaken}); then {@link #taken} decides, once, between the
     * sequencer taking it and the client withdrawing it.
     */
    private boolean withdrawable;
    /** {@link #OPEN}, {@link #TAKEN} or {@link #WITHDRAWN}; only used when {@link #withdrawable}. */
    private volatile int taken;
    private static final int OPEN = 0;
    private static final int TAKEN = 1;
    private static final int WITHDRAWN = 2;
    private static final VarHandle TAKEN_STATE;

    static {
        try {
            TAKEN_STATE = MethodHandles.lookup().findVarHandle(CommitRequest.class, "taken", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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

    /** The read version it was sent with, or -1 when the transaction had none. */
    public long readVersion() {
        return readVersion;
    }

    /**
     * Lets the client withdraw this request until the sequencer takes it into a batch. For a
     * commit that, in FoundationDB, would still be fetching its read version before anything
     * leaves the client ({@code tryCommit} waits for {@code startTransaction}), so that a
     * transaction destroyed right after {@code commit()} drops it there. Call before
     * {@link CommitPipeline#submit}.
     */
    public void withdrawableUntilTaken() {
        this.withdrawable = true;
    }

    /**
     * Withdraws the request if the sequencer has not taken it: true if it is withdrawn (then the
     * sequencer skips it and never completes {@link #result}; the caller answers the commit).
     */
    public boolean withdraw() {
        return withdrawable && (TAKEN_STATE.compareAndSet(this, OPEN, WITHDRAWN) || taken == WITHDRAWN);
    }

    /** The sequencer takes the request into a batch: false if the client withdrew it first. */
    boolean take() {
        return !withdrawable || TAKEN_STATE.compareAndSet(this, OPEN, TAKEN);
    }

    /**
     * Asks the sequencer to report which read conflict ranges conflicted if the request fails
     * with {@code not_committed}, as FoundationDB's resolver does for a transaction with
     * {@code report_conflicting_keys}: every range that meets a write committed in an earlier
     * batch, or else the first that meets a write of a request accepted earlier in the same
     * batch. Costs nothing for requests that do not ask.
     *
     * @return this request
     */
    public CommitRequest reportConflictingKeys() {
        this.reportConflictingKeys = true;
        return this;
    }

    /** Whether {@link #reportConflictingKeys()} was asked for. */
    public boolean reportsConflictingKeys() {
        return reportConflictingKeys;
    }

    /**
     * After {@link #result} failed with {@code not_committed}: the indices, in the read conflict
     * ranges this request was built with, of those that conflicted; null when the request did
     * not ask ({@link #reportConflictingKeys()}) or failed otherwise.
     */
    public int[] conflictingReadRanges() {
        return conflictingReads == null ? null : conflictingReads.clone();
    }

    /**
     * Has the status counters count {@code issued} — the transaction's mutations as issued,
     * FoundationDB's proxies count every one — for this request, which carries fewer.
     */
    public void countMutationsAs(List<Mutation> issued) {
        long bytes = 0;
        for (Mutation m : issued) {
            bytes += m.size();
        }
        countedMutations = issued.size();
        countedMutationBytes = bytes;
    }

    /** The read conflict ranges this request was built with. */
    public ConflictRanges readConflictRanges() {
        return readConflicts;
    }
}
