package io.strata.layers.mutex;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The janitors' staleness test, on the janitor's own clock ({@link MutexJanitor} states the
 * argument): for each watched grant (one for a mutex, one per holder for a semaphore) it keeps
 * the grant and beat values seen last and the time they were first seen; values unchanged for
 * {@code staleAfter} are stale. Nothing here reads a time from the database, and values are
 * compared byte for byte, never interpreted. Not thread-safe: the janitor serializes calls.
 *
 * @param <K> what identifies a watched grant (the holder's name for a semaphore)
 */
final class StalenessTracker<K> {
    private final long staleAfterNanos;
    private final LongSupplier nanoClock;
    /** Per watched grant: the values seen last and when they were first seen. */
    private final Map<K, Seen> seen = new HashMap<>();

    /**
     * @param staleAfter how long the values may stay unchanged before they are stale
     * @param nanoClock  the janitor's monotonic clock in nanoseconds
     */
    StalenessTracker(Duration staleAfter, LongSupplier nanoClock) {
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, got " + staleAfter);
        }
        this.staleAfterNanos = staleAfter.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock);
    }

    /**
     * One observation, read just before: {@code now} holds every grant that exists (grants
     * absent from it are forgotten). Values that differ from the last ones seen restart their
     * timer; values unchanged for {@code staleAfter} are returned and forgotten, so the caller
     * acts on each stale observation once and a grant seen again starts a new timer.
     *
     * @return the stale grants with the values seen stale, which the caller re-reads and
     *         compares in the transaction that acts
     */
    Map<K, Values> observe(Map<K, Values> now) {
        long clock = nanoClock.getAsLong();
        seen.keySet().retainAll(now.keySet());
        List<K> stale = new ArrayList<>();
        for (Map.Entry<K, Values> e : now.entrySet()) {
            Seen s = seen.get(e.getKey());
            if (s == null || !s.values.equals(e.getValue())) {
                seen.put(e.getKey(), new Seen(e.getValue(), clock));
            } else if (clock - s.at >= staleAfterNanos) {
                stale.add(e.getKey());
            }
        }
        Map<K, Values> expected = new HashMap<>();
        for (K k : stale) {
            expected.put(k, seen.remove(k).values);
        }
        return expected;
    }

    private record Seen(Values values, long at) {}

    /** Raw grant and beat values; compared byte for byte, never interpreted as times. */
    record Values(byte[] grant, byte[] beat) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Values other && Arrays.equals(grant, other.grant) && Arrays.equals(beat, other.beat);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(grant) + Arrays.hashCode(beat);
        }
    }
}
