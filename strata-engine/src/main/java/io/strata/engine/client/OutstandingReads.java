package io.strata.engine.client;

import java.util.function.Consumer;

/**
 * The reads a commit must wait for, and the read failure it must report: RYW's
 * {@code reading} ({@code fdbclient/ReadYourWrites.actor.cpp}).
 *
 * <h2>What FoundationDB does</h2>
 * Every {@code get}, {@code getKey} and {@code getRange} that passes RYW's argument checks adds
 * {@code success(result)} to {@code reading}, an {@code AndFuture}; snapshot reads and reads
 * with read-your-writes disabled too. RYW's commit sets {@code commitStarted}, then waits for
 * {@code resetPromise || reading} before it hands anything to the native transaction. The
 * {@code AndFuture} is a {@code quorum} of all of them, which fails as soon as one fails: so a
 * failed read fails the commit with the read's own error, whether or not anyone looked at the
 * read's future, and the commit is never sent. Which error, when several reads failed: a
 * {@code quorum} built over futures already failed takes the first in the order they were
 * added; if none had failed yet, the first to fail from then on.
 *
 * <p>What does not count: errors of RYW's checks before the read is issued
 * ({@code used_during_commit}, the reset's error, {@code key_outside_legal_range},
 * {@code range_limits_invalid}; an inverted or zero-limit range is an empty answer, no
 * read), and those of the layers above RYW (the deferred error in
 * {@code ThreadSafeTransaction}, {@code exact_mode_without_limits} in {@code fdb_c}). A watch
 * adds a promise that its read always fulfils, so the commit waits for a watch's read but
 * never fails by it; {@code getReadVersion}, {@code getEstimatedRangeSizeBytes},
 * {@code getRangeSplitPoints} and {@code getMappedRange} are not in {@code reading} at all
 * ({@link ReadKind}). Errors that reach reads
 * through the reset (1025, 1031, 2017) fail the commit through the reset first.
 * {@code onError} starts a fresh {@code reading} ({@code resetRyow}); here a fresh transaction.
 *
 * <h2>Here</h2>
 * The transaction gives each read that may finish later a ticket ({@link #start}) and calls
 * {@link #finish} when the read itself ends — not when its future is completed, which the
 * caller may have cancelled: cancelling a read's future in fdb-java leaves the native read
 * running, held by {@code reading}. A read that fails at once calls {@link #failedAtOnce}.
 * Tickets are issued in order, so the first failure by issue order is the one an
 * {@code AndFuture} built now would report. Reads answered at once without error cost nothing.
 *
 * <p>Concurrency: guarded by the owning transaction's monitor. A continuation handed back by
 * {@link #finish} must be run by the caller after releasing the monitor.
 */
final class OutstandingReads {
    private long issued;
    private int inFlight;
    private long failedTicket = Long.MAX_VALUE;
    private Throwable failure;
    /** The commit waiting for the reads in flight, or null. */
    private Consumer<Throwable> waiter;

    /** A read (or read version) that will finish later; pass the ticket to {@link #finish}. */
    long start() {
        inFlight++;
        return ++issued;
    }

    /** A read that failed as it was issued; its error fails a later commit. */
    void failedAtOnce(Throwable error) {
        record(++issued, error);
    }

    /**
     * A read started with {@link #start} ended with {@code error} (null: it succeeded);
     * {@code counts} is false for what a commit waits for but does not fail by (a watch's read,
     * the read version). Returns what the waiting commit must do next, to run outside the
     * monitor, or null.
     */
    Runnable finish(long ticket, Throwable error, boolean counts) {
        inFlight--;
        if (counts && error != null) {
            record(ticket, error);
        }
        Consumer<Throwable> w = waiter;
        if (w == null) {
            return null;
        }
        if (counts && error != null) {
            // The quorum fails with the first failure once the commit waits on it.
            waiter = null;
            return () -> w.accept(error);
        }
        if (inFlight == 0) {
            waiter = null;
            return () -> w.accept(null);
        }
        return null;
    }

    /** The failure a commit started now reports, or null. */
    Throwable failure() {
        return failure;
    }

    /**
     * For a commit with no failure yet: true if no read is in flight, so it may go on at once;
     * otherwise false, and {@code then} is called once every read in flight has finished (with
     * null) or at the first read failure (with its error), through a later {@link #finish}.
     */
    boolean awaitAll(Consumer<Throwable> then) {
        if (inFlight == 0) {
            return true;
        }
        waiter = then;
        return false;
    }

    private void record(long ticket, Throwable error) {
        if (ticket < failedTicket) {
            failedTicket = ticket;
            failure = error;
        }
    }
}
