package io.strata.layers.mutex;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A janitor's clock that moves only when a test says so. */
final class ManualClock implements LongSupplier {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    @Override
    public long getAsLong() {
        return nanos.get();
    }

    void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }
}
