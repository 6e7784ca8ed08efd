package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * {@link MutexJanitor} for a {@link DistributedSemaphore}: each holder is watched on its own.
 * A holder whose holder and beat values have not changed for {@code staleAfter} on this
 * janitor's clock loses its permit, which goes to the head of the queue, in one transaction
 * that re-reads both values and acts only if they are still the ones seen stale. The timing
 * and concurrency arguments are {@link MutexJanitor}'s.
 */
public final class SemaphoreJanitor implements AutoCloseable {
    private final Database db;
    private final SemaphoreKeys keys;
    private final long staleAfterNanos;
    private final LongSupplier nanoClock;
    /** Per holder name: the values seen last and when they were first seen. Guarded by this. */
    private final Map<String, Seen> seen = new HashMap<>();
    private volatile ScheduledFuture<?> task;

    public SemaphoreJanitor(Database db, Subspace subspace, Duration staleAfter, LongSupplier nanoClock) {
        this.db = Objects.requireNonNull(db);
        this.keys = new SemaphoreKeys(subspace);
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, got " + staleAfter);
        }
        this.staleAfterNanos = staleAfter.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock);
    }

    /** Checks every {@code period} on {@code scheduler} until {@link #close}. */
    public SemaphoreJanitor start(ScheduledExecutorService scheduler, Duration period) {
        long nanos = period.toNanos();
        task = scheduler.scheduleWithFixedDelay(() -> {
            try {
                check();
            } catch (RuntimeException e) {
                // skipped; the next check starts over (throwing would cancel the schedule)
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
        return this;
    }

    /**
     * One observation of every holder; takes the permits of those unchanged for
     * {@code staleAfter}.
     *
     * @return the names whose permits were taken
     */
    public synchronized List<String> check() {
        Map<String, Values> now = db.read(tr -> {
            Map<String, Values> m = new HashMap<>();
            for (KeyValue kv : tr.getRange(keys.holders.range()).asList().join()) {
                String who = keys.holders.unpack(kv.getKey()).getString(0);
                m.put(who, new Values(kv.getValue(), tr.get(keys.beats.pack(Tuple.from(who))).join()));
            }
            return m;
        });
        long clock = nanoClock.getAsLong();
        seen.keySet().retainAll(now.keySet());
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, Values> e : now.entrySet()) {
            Seen s = seen.get(e.getKey());
            if (s == null || !s.values.equals(e.getValue())) {
                seen.put(e.getKey(), new Seen(e.getValue(), clock));
            } else if (clock - s.at >= staleAfterNanos) {
                stale.add(e.getKey());
            }
        }
        List<String> taken = new ArrayList<>();
        for (String who : stale) {
            Values expected = seen.remove(who).values;
            boolean done = LockTransactions.run(db, tr -> {
                Values current = new Values(tr.get(keys.holders.pack(Tuple.from(who))).join(),
                        tr.get(keys.beats.pack(Tuple.from(who))).join());
                if (!current.equals(expected)) {
                    return false;
                }
                SemaphoreKeys.handOn(tr, keys.holders, keys.beats, keys.lastKey, keys.queue, who);
                return true;
            });
            if (done) {
                taken.add(who);
            }
        }
        return taken;
    }

    @Override
    public void close() {
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }

    private record Seen(Values values, long at) {}

    /** Raw holder and beat values; compared byte for byte, never interpreted as times. */
    private record Values(byte[] holder, byte[] beat) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Values other && Arrays.equals(holder, other.holder) && Arrays.equals(beat, other.beat);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(holder) + Arrays.hashCode(beat);
        }
    }
}
