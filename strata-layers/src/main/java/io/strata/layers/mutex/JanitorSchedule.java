package io.strata.layers.mutex;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** A janitor's periodic check, shared by {@link MutexJanitor} and {@link SemaphoreJanitor}. */
final class JanitorSchedule {
    private volatile ScheduledFuture<?> task;

    /** Runs {@code check} every {@code period} on {@code scheduler} until {@link #stop}. */
    void start(ScheduledExecutorService scheduler, Duration period, Runnable check) {
        long nanos = period.toNanos();
        task = scheduler.scheduleWithFixedDelay(() -> {
            try {
                check.run();
            } catch (RuntimeException e) {
                // A failed check (database closing, non-retryable error) is skipped; the next
                // one starts over. Throwing here would cancel the schedule silently.
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    void stop() {
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }
}
