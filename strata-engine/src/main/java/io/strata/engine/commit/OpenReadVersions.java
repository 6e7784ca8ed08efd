package io.strata.engine.commit;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Under {@link io.strata.MvccWindow#OPEN_TRANSACTIONS}: the oldest version an open transaction
 * may still read, so that the window can drop what is older than that instead of keeping
 * five seconds of versions for readers that do not exist.
 *
 * <p>Transactions are counted by <em>epoch</em>, not one by one: a transaction calls
 * {@link #hold} before it takes its read version (the visible version, read after) and
 * {@link ReadHold#release}s when it ends; the sequencer, at each pruning, starts a new epoch
 * that begins at the visible version of that moment ({@link #floor}). A transaction counted
 * in an epoch reads at that epoch's start or later, so the floor — the start of the oldest
 * epoch with a transaction still open — is never above an open transaction's read version.
 * An epoch whose successor began more than five seconds ago is dropped even if it still
 * counts transactions (one that was never closed would otherwise hold the window open for
 * ever): its transactions took their read version over five seconds ago and would be too
 * old in any case. The floor lags the oldest open transaction by at most one pruning interval.
 *
 * <p>Concurrency: {@link #current} is volatile and each epoch's count atomic. {@link #hold}
 * increments the current epoch's count, then re-reads {@link #current}; if it moved, it
 * decrements and retries in the new one. {@link #floor} publishes the new epoch, then reads
 * the old counts. In the total order of these volatile accesses either the holder sees the
 * new epoch (and moves) or the sequencer sees its count; so an epoch seen at zero after its
 * successor was published has no transaction left, and none can join it. The queue of epochs
 * is the sequencer's alone.
 */
public final class OpenReadVersions {
    /** The transactions counted in one epoch; {@link #release} once per {@link #hold}. */
    public static final class ReadHold {
        final long start;
        private final AtomicLong open = new AtomicLong();
        /** The start of the epoch after this one; {@link Long#MAX_VALUE} while this one is current. */
        private long next = Long.MAX_VALUE;

        ReadHold(long start) {
            this.start = start;
        }

        /** Ends one transaction of this epoch. */
        public void release() {
            open.decrementAndGet();
        }
    }

    private volatile ReadHold current;
    /** Every epoch that may still count open transactions, oldest first; {@link #current} last. The sequencer's only. */
    private final ArrayDeque<ReadHold> epochs = new ArrayDeque<>();

    OpenReadVersions(long visibleVersion) {
        current = new ReadHold(visibleVersion);
        epochs.add(current);
    }

    /**
     * Counts a transaction that is about to take its read version; it must read the visible
     * version after this returns, and release the hold when it ends. Any thread.
     */
    public ReadHold hold() {
        while (true) {
            ReadHold e = current;
            e.open.incrementAndGet();
            if (current == e) {
                return e;
            }
            e.open.decrementAndGet();
        }
    }

    /**
     * Sequencer: starts a new epoch at {@code visibleVersion} and returns the oldest version an
     * open transaction may read; epochs whose successor began before {@code tooOld} no longer
     * count.
     */
    long floor(long visibleVersion, long tooOld) {
        ReadHold last = current;
        ReadHold next = new ReadHold(visibleVersion);
        last.next = visibleVersion;
        epochs.add(next);
        current = next;
        while (epochs.peekFirst() != next) {
            ReadHold oldest = epochs.peekFirst();
            if (oldest.open.get() != 0 && oldest.next >= tooOld) {
                break;
            }
            epochs.pollFirst();
        }
        return epochs.peekFirst().start;
    }
}
