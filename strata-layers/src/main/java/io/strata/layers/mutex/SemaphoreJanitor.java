package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import io.strata.layers.mutex.StalenessTracker.Values;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
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
    /** Per holder name: the holder and beat values seen last. Guarded by this. */
    private final StalenessTracker<String> tracker;
    private final JanitorSchedule schedule = new JanitorSchedule();

    public SemaphoreJanitor(Database db, Subspace subspace, Duration staleAfter, LongSupplier nanoClock) {
        this.db = Objects.requireNonNull(db);
        this.keys = new SemaphoreKeys(subspace);
        this.tracker = new StalenessTracker<>(staleAfter, nanoClock);
    }

    /** Checks every {@code period} on {@code scheduler} until {@link #close}. */
    public SemaphoreJanitor start(ScheduledExecutorService scheduler, Duration period) {
        schedule.start(scheduler, period, this::check);
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
        List<String> taken = new ArrayList<>();
        for (Map.Entry<String, Values> stale : tracker.observe(now).entrySet()) {
            String who = stale.getKey();
            Values expected = stale.getValue();
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
        schedule.stop();
    }
}
