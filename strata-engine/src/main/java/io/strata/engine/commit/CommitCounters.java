package io.strata.engine.commit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the sequencer has done since the engine started, counted as FoundationDB's commit
 * proxies and resolvers count it for {@code \xff\xff/status/json}'s {@code cluster.workload}:
 * transactions committed and those refused for a conflict, and the mutations and mutation
 * bytes committed.
 *
 * <h2>Concurrency</h2>
 * Only the sequencer writes, once per batch, with release stores ({@code lazySet}: no locked
 * instruction on the commit path); any thread reads. A reader sees each counter at some batch
 * boundary, not necessarily the same one for every counter, which is all a status report needs.
 */
public final class CommitCounters {
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong conflicted = new AtomicLong();
    private final AtomicLong tooOld = new AtomicLong();
    private final AtomicLong mutations = new AtomicLong();
    private final AtomicLong mutationBytes = new AtomicLong();

    CommitCounters() {
    }

    /** Adds one batch's outcome; sequencer only. */
    void addBatch(long committedCount, long conflictedCount, long tooOldCount, long mutationCount, long bytes) {
        if (committedCount != 0) {
            committed.lazySet(committed.get() + committedCount);
            mutations.lazySet(mutations.get() + mutationCount);
            mutationBytes.lazySet(mutationBytes.get() + bytes);
        }
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
