package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Hands a mutex on when its owner stops heartbeating: if the owner and beat values have not
 * changed for {@code staleAfter}, measured on this janitor's own clock, the janitor hands the
 * lock to the head of the queue (with the next fencing token), or frees it.
 *
 * <h2>Staleness without clock agreement</h2>
 * Nothing in the database holds a time. Each {@link #check} reads the owner and beat values;
 * when they differ from the last ones seen, the janitor notes the pair and the time on its
 * own clock; when they are still the same {@code staleAfter} later, the owner missed every
 * heartbeat in between. Only this janitor's clock measures the interval, so the clients'
 * and janitors' clocks need not agree. With checks every {@code period}, an owner that stops
 * beating loses the lock between {@code staleAfter} and {@code staleAfter + 2 * period} after
 * its last beat (the last change is first seen up to one period late, and the timeout is
 * noticed up to one period late). Choose {@code staleAfter} as several heartbeat intervals
 * plus the longest commit latency you expect.
 *
 * <h2>Concurrency</h2>
 * The hand-on is one transaction that re-reads the owner and beat serializably and acts only
 * if both are still the values seen stale: a heartbeat, a release or another janitor that
 * commits first makes the check fail (or the transaction conflict and retry, then fail), so
 * the janitor never takes the lock from an owner that proved alive or from a new owner.
 * Several janitors may watch the same mutex; under {@code commit_unknown_result} a retried
 * hand-on that did commit finds the owner changed and does nothing. {@link #check} is
 * synchronized; the scheduled task and a caller may both call it.
 */
public final class MutexJanitor implements AutoCloseable {
    private final Database db;
    private final MutexState state;
    private final long staleAfterNanos;
    private final LongSupplier nanoClock;
    /** The owner and beat values seen last (null: free or not yet seen) and when they were first seen. Guarded by this. */
    private Observation seen;
    private long seenAt;
    private volatile ScheduledFuture<?> task;

    /**
     * A janitor of the mutex in {@code subspace}.
     *
     * @param staleAfter how long owner and beat may stay unchanged before the lock is handed on
     * @param nanoClock  this janitor's monotonic clock in nanoseconds (System::nanoTime, or a
     *                   test's manual clock)
     */
    public MutexJanitor(Database db, Subspace subspace, Duration staleAfter, LongSupplier nanoClock) {
        this.db = Objects.requireNonNull(db);
        this.state = new MutexState(subspace);
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, got " + staleAfter);
        }
        this.staleAfterNanos = staleAfter.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock);
    }

    /** Checks every {@code period} on {@code scheduler} until {@link #close}. */
    public MutexJanitor start(ScheduledExecutorService scheduler, Duration period) {
        long nanos = period.toNanos();
        task = scheduler.scheduleWithFixedDelay(() -> {
            try {
                check();
            } catch (RuntimeException e) {
                // A failed check (database closing, non-retryable error) is skipped; the next
                // one starts over. Throwing here would cancel the schedule silently.
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
        return this;
    }

    /**
     * One observation: reads owner and beat, and hands the lock on if they have been the same
     * for {@code staleAfter} on this janitor's clock.
     *
     * @return the client the lock was taken from, or null when nothing was done
     */
    public synchronized String check() {
        Observation now = db.read(tr -> new Observation(tr.get(state.ownerKey()).join(), tr.get(state.beatKey()).join()));
        long clock = nanoClock.getAsLong();
        MutexOwner owner = MutexState.decodeOwner(now.owner);
        if (MutexState.isFree(owner)) {
            seen = null;
            return null;
        }
        if (!now.equals(seen)) {
            seen = now;
            seenAt = clock;
            return null;
        }
        if (clock - seenAt < staleAfterNanos) {
            return null;
        }
        Observation stale = seen;
        seen = null;
        boolean handedOn = LockTransactions.run(db, tr -> {
            Observation current = new Observation(tr.get(state.ownerKey()).join(), tr.get(state.beatKey()).join());
            if (!current.equals(stale)) {
                return false;
            }
            state.handOn(tr, owner.token());
            return true;
        });
        return handedOn ? owner.name() : null;
    }

    @Override
    public void close() {
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** Raw owner and beat values; compared byte for byte, never interpreted as times. */
    private record Observation(byte[] owner, byte[] beat) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Observation other && Arrays.equals(owner, other.owner) && Arrays.equals(beat, other.beat);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(owner) + Arrays.hashCode(beat);
        }
    }
}
