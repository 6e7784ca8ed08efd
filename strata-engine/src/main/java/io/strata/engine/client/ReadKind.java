package io.strata.engine.client;

/**
 * What a read counts for in RYW ({@code fdbclient/ReadYourWrites.actor.cpp}), which is not the
 * same for every kind of read: whether it is in {@code reading} — so that a commit waits for it
 * and fails with its error ({@link OutstandingReads}) — and whether it makes
 * {@code read_your_writes_disable} too late ({@code reading.getFutureCount() > 0}).
 */
enum ReadKind {
    /** {@code get}, {@code getKey}, a {@code getRange} batch: {@code reading.add(success(result))}. */
    READ(true, true),
    /**
     * A watch's read of its key: RYW's watch adds a promise of its own to {@code reading} and
     * keeps it whatever the read does, so a commit waits for the read but never fails by it.
     */
    WATCH(true, false),
    /**
     * A {@code getMappedRange} batch: read around RYW's cache and not added to {@code reading},
     * so it neither counts as a read nor fails a commit. (The engine's commit still waits for it:
     * the batch adds its conflict ranges when it ends, and they must not change under a commit
     * already sent.)
     */
    MAPPED(false, false);

    /** Whether it counts as a read when {@code read_your_writes_disable} is set. */
    final boolean marksRead;
    /** Whether its failure fails the commit. */
    final boolean failsCommit;

    ReadKind(boolean marksRead, boolean failsCommit) {
        this.marksRead = marksRead;
        this.failsCommit = failsCommit;
    }
}
