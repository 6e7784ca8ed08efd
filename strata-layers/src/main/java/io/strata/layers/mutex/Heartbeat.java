package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.tuple.Tuple;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heartbeat of one grant: every interval, one transaction that reads the owner key and,
 * only if it still names this client with this grant's token, writes a new value to the beat
 * key. Because the check reads the owner key serializably, a heartbeat that races a release,
 * a janitor's hand-on or a cancellation either sees the new owner and writes nothing, or
 * conflicts and retries and then sees it: a heartbeat can never resurrect a lock that is gone.
 *
 * <p>The beat value is {@code (token, sequence)}, a new value each beat (the janitor only
 * compares values, it never interprets them, so no clock is written anywhere). A beat that
 * finds the lock gone stops the heartbeat and reports it through {@code onLost}.
 *
 * <p>Concurrency: the scheduled task starts a transaction and returns; {@link #inFlight}
 * keeps one beat at a time, so a slow commit delays the next beat rather than piling beats
 * up. {@link #stop} is idempotent and may race a beat in flight, which is harmless for the
 * reason above.
 */
final class Heartbeat {
    private final Database db;
    private final MutexState state;
    private final String name;
    private final long token;
    private final Runnable onLost;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile ScheduledFuture<?> task;

    Heartbeat(Database db, MutexState state, String name, long token, Runnable onLost) {
        this.db = db;
        this.state = state;
        this.name = name;
        this.token = token;
        this.onLost = onLost;
    }

    long token() {
        return token;
    }

    /** Beats every {@code interval} on {@code scheduler}, the first one after one interval. */
    void start(ScheduledExecutorService scheduler, Duration interval) {
        long nanos = interval.toNanos();
        task = scheduler.scheduleWithFixedDelay(this::beat, nanos, nanos, TimeUnit.NANOSECONDS);
        if (stopped.get()) {
            task.cancel(false);
        }
    }

    void stop() {
        stopped.set(true);
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** One beat; returns the transaction's outcome (true: still the owner, beat written). */
    CompletableFuture<Boolean> beat() {
        if (stopped.get() || !inFlight.compareAndSet(false, true)) {
            return CompletableFuture.completedFuture(!stopped.get());
        }
        CompletableFuture<Boolean> done = db.runAsync(tr -> tr.get(state.ownerKey()).thenApply(value -> {
            MutexOwner owner = MutexState.decodeOwner(value);
            if (!owner.name().equals(name) || owner.token() != token) {
                return false;
            }
            tr.set(state.beatKey(), Tuple.from(token, sequence.incrementAndGet()).pack());
            return true;
        }));
        return done.whenComplete((stillOwner, error) -> {
            inFlight.set(false);
            if (error == null && !stillOwner) {
                stop();
                onLost.run();
            }
            // An error (the database closing, a non-retryable failure) skips one beat; the next
            // one tries again, and the janitor decides if too many are missed.
        });
    }
}
