package io.strata.redis.command;

import com.apple.foundationdb.Transaction;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Redis's "dirty" counter, which INFO persistence reports as
 * {@code rdb_changes_since_last_save}: the changes committed by this process since the last
 * SAVE or BGSAVE. A change is what a keyspace event names (a SET, an LPUSH, an expired key,
 * a deleted one ...), counted whether notifications are on or not; Redis counts a few commands
 * differently (SADD of three new members is three changes there, one event here), so the
 * figure is close to Redis's, not equal. Every change is durable when it is counted: the
 * number says how much changed, not how much could be lost.
 *
 * <p>Changes are counted per transaction attempt and added only once the attempt commits, so
 * retried and failed attempts count nothing.
 *
 * <p>Concurrency: attempts are keyed by their transaction in a concurrent map; one attempt's
 * commands run one after another, so its count needs no lock.
 */
public final class ChangeCounter {
    private final Map<Transaction, long[]> attempts = new ConcurrentHashMap<>();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong atLastSave = new AtomicLong();

    /** Starts counting the changes of an attempt. */
    void begin(Transaction tr) {
        attempts.put(tr, new long[1]);
    }

    /** One change in {@code tr}; nothing if {@code tr} is not an attempt being counted. */
    public void count(Transaction tr) {
        long[] n = tr == null ? null : attempts.get(tr);
        if (n != null) {
            n[0]++;
        }
    }

    /** The attempt committed: its changes count. */
    void committed(Transaction tr) {
        long[] n = attempts.remove(tr);
        if (n != null) {
            committed.addAndGet(n[0]);
        }
    }

    /** The attempt failed or is retried: its changes never happened. */
    void abandoned(Transaction tr) {
        attempts.remove(tr);
    }

    /** Changes committed since the last {@link #saved}. */
    public long sinceLastSave() {
        return committed.get() - atLastSave.get();
    }

    /** SAVE or BGSAVE: the count starts again from zero. */
    public void saved() {
        atLastSave.set(committed.get());
    }
}
