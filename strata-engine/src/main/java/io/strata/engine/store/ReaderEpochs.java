package io.strata.engine.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets the disk catch-up know when no range read that began before a disk write is still
 * running, so that the window's copies of what it wrote may be dropped (a grace period, as
 * in read-copy-update).
 *
 * <p>A range read over a disk store opens a disk cursor, which sees the disk as it was when
 * opened, and walks the window's chains lazily beside it. Were the writer to drop a chain
 * whose versions reached the disk after the cursor opened, the read would find the key in
 * neither. So a range read {@link #enter}s before it opens its cursor and {@link #exit}s when
 * closed, and the catch-up, after each disk write, {@link #flip}s the epoch and drops that
 * write's chains only once {@link #drained} says every read of the previous epoch is done.
 *
 * <p>Concurrency: two counters, by the parity of the epoch. A reader increments its
 * epoch's counter, then re-reads the epoch; if it moved meanwhile it retries in the new one.
 * The flipper writes the epoch, then reads the old counter. Both are volatile accesses, so in
 * their one total order either the reader sees the new epoch (and moves) or the flipper sees
 * the reader counted. Point reads need none of this (see {@link VersionedStore}).
 */
final class ReaderEpochs {
    private volatile long epoch;
    private final AtomicLong[] active = {new AtomicLong(), new AtomicLong()};

    /** Registers a reader; pass the result to {@link #exit}. */
    long enter() {
        while (true) {
            long e = epoch;
            AtomicLong counter = active[(int) (e & 1)];
            counter.incrementAndGet();
            if (epoch == e) {
                return e;
            }
            counter.decrementAndGet();
        }
    }

    /** Ends a reader registered in {@code epoch}. */
    void exit(long epoch) {
        active[(int) (epoch & 1)].decrementAndGet();
    }

    /**
     * Starts a new epoch; returns the previous one, for {@link #drained}. One caller (the
     * catch-up thread), and only once the previous epoch's flip has drained.
     */
    long flip() {
        long e = epoch;
        epoch = e + 1;
        return e;
    }

    /** Whether every reader of {@code epoch} has exited. */
    boolean drained(long epoch) {
        return active[(int) (epoch & 1)].get() == 0;
    }
}
