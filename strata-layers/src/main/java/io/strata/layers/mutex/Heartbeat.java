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
import java.util.function.Predicate;

/**
 * The heartbeat of one grant: every interval, one transaction that reads the key recording the
 * grant (the mutex's owner key, a semaphore's holder key) and, only if it still records this
 * grant, writes a new value to the beat key. Because the check reads that key serializably, a
 * heartbeat that races a release, a janitor's hand-on or a cancellation either sees the change
 * and writes nothing, or conflicts and retries and then sees it: a heartbeat can never keep
 * alive (in the janitor's eyes) a grant that is gone, whoever holds the lock now.
 *
 * <p>The beat value is {@code (token, sequence)}, a new value each beat (the janitor only
 * compares values, it never interprets them, so no clock is written anywhere). A beat that
 * finds the grant gone stops the heartbeat.
 *
 * <p>Concurrency: the scheduled task starts a transaction and returns; {@link #inFlight}
 * keeps one beat at a time, so a slow commit delays the next beat rather than piling beats
 * up. {@link #stop} is idempotent and may race a beat in flight, which is harmless for the
 * reason above.
 */
final class Heartbeat {
    private final Database db;
    private final byte[] grantKey;
    private final Predicate<byte[]> stillGranted;
    private final byte[] beatKey;
    private final long token;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile ScheduledFuture<?> task;

    /**
     * @param grantKey     the key recording the grant
     * @param stillGranted whether a value of {@code grantKey} (null: absent) is still this grant
     * @param beatKey      the key the beats go to
     * @param token        the grant's token, written with each beat
     */
    Heartbeat(Database db, byte[] grantKey, Predicate<byte[]> stillGranted, byte[] beatKey, long token) {
        this.db = db;
        this.grantKey = grantKey;
        this.stillGranted = stillGranted;
        this.beatKey = beatKey;
        this.token = token;
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
        CompletableFuture<Boolean> done = db.runAsync(tr -> tr.get(grantKey).thenApply(value -> {
            if (!stillGranted.test(value)) {
                return false;
            }
            tr.set(beatKey, Tuple.from(token, sequence.incrementAndGet()).pack());
            return true;
        }));
        return done.whenComplete((stillOwner, error) -> {
            inFlight.set(false);
            if (error == null && !stillOwner) {
                stop();
            }
            // An error (the database closing, a non-retryable failure) skips one beat; the next
            // one tries again, and the janitor decides if too many are missed.
        });
    }
}
