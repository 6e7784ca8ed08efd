package io.strata.redis.command;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One lock per lane, held by whichever batch runs a transaction on the lane's keys: the
 * lane's own batch, or a cross-lane batch that holds every lane its keys fall in. Two batches
 * that share a lane therefore never run their transactions at the same time, and batches of
 * disjoint lanes still run in parallel.
 *
 * <p>Concurrency: a lane's own batch takes only its lane's lock; the single cross-lane thread
 * and an event loop running several lanes' batches as one ({@code LoopBatches}) take several,
 * always in ascending lane order and all before the transaction starts, so no cycle of waits
 * can form. A holder releases before it waits for anything else (the
 * clients its commit unblocked), so a holder never waits on another lane. The locks are fair:
 * a cross-lane batch waiting for a busy lane gets it when the lane's current batch ends, not
 * after however many more batches the lane has queued.
 */
final class LaneLocks {
    private final ReentrantLock[] locks = new ReentrantLock[CommandLanes.LANES];

    LaneLocks() {
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock(true);
        }
    }

    /** Takes every lane of {@code mask}, in ascending order; the returned hold releases them once. */
    Hold acquire(int mask) {
        for (int m = mask; m != 0; m &= m - 1) {
            locks[Integer.numberOfTrailingZeros(m)].lock();
        }
        return new Hold(mask);
    }

    /** Whether a batch holds lane {@code lane} now: a hint, true or false a moment later. */
    boolean isHeld(int lane) {
        return locks[lane].isLocked();
    }

    /**
     * The lanes one batch holds; {@link #release} is idempotent, for a finally after an early
     * release. Used by the one thread that acquired it (a lock is released by its owner).
     */
    final class Hold {
        private int held;

        private Hold(int mask) {
            this.held = mask;
        }

        void release() {
            for (int m = held; m != 0; m &= m - 1) {
                locks[Integer.numberOfTrailingZeros(m)].unlock();
            }
            held = 0;
        }
    }
}
