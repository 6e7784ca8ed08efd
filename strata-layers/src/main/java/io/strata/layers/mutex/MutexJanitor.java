package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;

import io.strata.layers.mutex.StalenessTracker.Values;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
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
    /** The owner and beat values seen last, keyed by owner name (none while free). Guarded by this. */
    private final StalenessTracker<String> tracker;
    private final JanitorSchedule schedule = new JanitorSchedule();

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
        this.tracker = new StalenessTracker<>(staleAfter, nanoClock);
    }

    /** Checks every {@code period} on {@code scheduler} until {@link #close}. */
    public MutexJanitor start(ScheduledExecutorService scheduler, Duration period) {
        schedule.start(scheduler, period, this::check);
        return this;
    }

    /**
     * One observation: reads owner and beat, and hands the lock on if they have been the same
     * for {@code staleAfter} on this janitor's clock.
     *
     * @return the client the lock was taken from, or null when nothing was done
     */
    public synchronized String check() {
        Values now = db.read(tr -> new Values(tr.get(state.ownerKey()).join(), tr.get(state.beatKey()).join()));
        MutexOwner owner = MutexState.decodeOwner(now.grant());
        Values stale = tracker.observe(MutexState.isFree(owner) ? Map.of() : Map.of(owner.name(), now)).get(owner.name());
        if (stale == null) {
            return null;
        }
        boolean handedOn = LockTransactions.run(db, tr -> {
            Values current = new Values(tr.get(state.ownerKey()).join(), tr.get(state.beatKey()).join());
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
        schedule.stop();
    }
}
