package io.strata.engine.commit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the sequencer has done since the engine started, counted as FoundationDB's commit
 * proxies and resolvers count it for {@code \xff\xff/status/json}'s {@code cluster.workload}:
 * transactions committed and those refused for a conflict, and the mutations and mutation
 * bytes committed.
 *
 * <h2>Concurrency</h2>
 * Only the sequencer writes, with release stores ({@code lazySet}: no locked instruction on
 * the commit path), and always before it completes the commits it counts, so a client that has
 * seen its commit succeed or fail then sees it counted. Any thread reads; a reader sees each
 * counter at some point of the sequencer's work, not necessarily the same one for every
 * counter, which is all a status report needs.
 */
public final class CommitCounters {
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong conflicted = new AtomicLong();
    private final AtomicLong tooOld = new AtomicLong();
    private final AtomicLong mutations = new AtomicLong();
    private final AtomicLong mutationBytes = new AtomicLong();

    CommitCounters() {
    }

    /** Adds one batch's committed transactions and their mutations; sequencer only, before it completes them. */
    void addCommitted(long committedCount, long mutationCount, long bytes) {
        if (committedCount != 0) {
            committed.lazySet(committed.get() + committedCount);
            mutations.lazySet(mutations.get() + mutationCount);
            mutationBytes.lazySet(mutationBytes.get() + bytes);
        }
    }

    /** Adds refused transactions; sequencer only, before it fails them. */
    void addRefused(long conflictedCount, long tooOldCount) {
        if (conflictedCount != 0) {
            conflicted.lazySet(conflicted.get() + conflictedCount);
        }
        if (tooOldCount != 0) {
            tooOld.lazySet(tooOld.get() + tooOldCount);
        }
    }

    /** Transactions with writes that the sequencer committed. */
    public long committed() {
        return committed.get();
    }

    /** Transactions refused with {@code not_committed} because a read conflict range met a newer write. */
    public long conflicted() {
        return conflicted.get();
    }

    /** Transactions refused with {@code transaction_too_old} by the resolver. */
    public long tooOld() {
        return tooOld.get();
    }

    /** Mutations of committed transactions (sets, clears and atomic operations). */
    public long mutations() {
        return mutations.get();
    }

    /** Bytes of those mutations: keys plus values, operands or range ends, as FoundationDB counts them. */
    public long mutationBytes() {
        return mutationBytes.get();
    }
}
