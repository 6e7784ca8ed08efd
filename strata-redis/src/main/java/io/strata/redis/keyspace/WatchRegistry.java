package io.strata.redis.keyspace;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Which deleted keys' change stamps may be cleared: those older than every WATCH in force in
 * any server process on the database.
 *
 * <h2>Why stamps of deleted keys are kept, and for how long</h2>
 * WATCH remembers a key's change stamp and whether it existed; EXEC fails when the stamp
 * differs or the key stopped existing. A key absent at WATCH that is created and deleted
 * again before EXEC ends absent, as it began: only its stamp, newer than the WATCH, tells
 * that it changed, so a deletion keeps the stamp. Kept forever, stamps would grow with every
 * key ever deleted (a cache's evictions, expired sessions). A deleted key's stamp written at
 * version {@code s} can matter only to a WATCH that read before {@code s}; so the sweep clears
 * it once {@code s} is at or below the read version of the oldest WATCH in force anywhere —
 * the <em>floor</em> — and EXEC
 * takes a stamp that vanished from a key that was absent at WATCH as no change (it can only
 * be one the sweep cleared: a newer one would be above the floor).
 *
 * <h2>Key layout</h2>
 * Under the server's area {@code 'w'}: {@code (processId, "min")} -&gt; the read version of the
 * process's oldest WATCH in force, 8 bytes little-endian ({@code Long.MAX_VALUE}: none), and
 * {@code (processId, "lease")} -&gt; until when, in Unix milliseconds (8 bytes big-endian),
 * the entry holds: a process that stops renewing it (it crashed) stops holding the floor.
 *
 * <h2>Concurrency argument</h2>
 * <ul>
 *   <li>A WATCH's own transaction lowers its process's entry with an atomic {@code MIN}
 *       ({@link #watching}) — no read, so WATCHes never conflict with each other — and reads
 *       the stamps it watches: a sweep that clears one of them after the WATCH's read version
 *       conflicts with it, and the WATCH is retried.</li>
 *   <li>A sweep reads every entry ({@link #floor}): a WATCH committing its {@code MIN} after
 *       the sweep's read version conflicts with the sweep, which is retried.</li>
 *   <li>A process raises its entry ({@link #publish}) only to the oldest WATCH its
 *       connections hold as of a read version taken before it looks at them, and reads the
 *       entry in the same transaction: a WATCH that registered before that read version is
 *       among its connections' (they record the version before their transaction commits);
 *       one that commits its {@code MIN} after it conflicts with the raise.</li>
 * </ul>
 */
public final class WatchRegistry {
    /** How long an entry holds the floor without being renewed. */
    public static final long LEASE_MILLIS = 30_000;
    /** How often a process renews its entry at least (and so publishes its floor). */
    public static final long RENEW_MILLIS = 10_000;
    /** Versions and "none" as stored: {@link Long#MAX_VALUE}. */
    public static final long NONE = Long.MAX_VALUE;

    private final Subspace area;
    private final byte[] minKey;
    private final byte[] leaseKey;

    /** The entry of process {@code processId} (unique per server process) under {@code area}. */
    public WatchRegistry(Subspace area, String processId) {
        this.area = area;
        this.minKey = area.pack(Tuple.from(processId, "min"));
        this.leaseKey = area.pack(Tuple.from(processId, "lease"));
    }

    /**
     * In a WATCH's transaction, whose read version is {@code readVersion}: holds the floor at
     * or below it, and renews the lease (blind writes both: no WATCH conflicts with another).
     */
    public void watching(Transaction tr, long readVersion, long nowMillis) {
        tr.mutate(MutationType.MIN, minKey, littleEndian(readVersion));
        tr.set(leaseKey, lease(nowMillis));
    }

    /** This process's entry as stored (read serializably), {@link #NONE} when absent. */
    public CompletableFuture<Long> published(ReadTransaction tr) {
        return tr.get(minKey).thenApply(v -> v == null ? NONE : fromLittleEndian(v));
    }

    /** Sets this process's entry to {@code oldestWatch} ({@link #NONE}: none) and renews its lease. */
    public void publish(Transaction tr, long oldestWatch, long nowMillis) {
        tr.set(minKey, littleEndian(oldestWatch));
        tr.set(leaseKey, lease(nowMillis));
    }

    /** Removes this process's entry (a clean stop). */
    public void withdraw(Transaction tr) {
        tr.clear(minKey);
        tr.clear(leaseKey);
    }

    private static byte[] lease(long nowMillis) {
        return ByteBuffer.allocate(8).putLong(nowMillis + LEASE_MILLIS).array();
    }

    /**
     * The floor: the oldest WATCH in force among the processes whose lease holds at
     * {@code nowMillis} ({@link #NONE} when none). Reads every entry serializably; clears
     * the entries of processes whose lease has passed.
     */
    public CompletableFuture<Long> floor(Transaction tr, long nowMillis) {
        return tr.getRange(area.range()).asList().thenApply(kvs -> {
            Map<String, Long> oldest = new HashMap<>();
            Map<String, Long> holdsUntil = new HashMap<>();
            for (KeyValue kv : kvs) {
                Tuple t = area.unpack(kv.getKey());
                if (t.getString(1).equals("min")) {
                    oldest.put(t.getString(0), fromLittleEndian(kv.getValue()));
                } else {
                    holdsUntil.put(t.getString(0), ByteBuffer.wrap(kv.getValue()).getLong());
                }
            }
            long floor = NONE;
            for (Map.Entry<String, Long> e : oldest.entrySet()) {
                Long until = holdsUntil.get(e.getKey());
                if (until == null || until < nowMillis) {
                    tr.clear(area.pack(Tuple.from(e.getKey(), "min")));
                    tr.clear(area.pack(Tuple.from(e.getKey(), "lease")));
                } else {
                    floor = Math.min(floor, e.getValue());
                }
            }
            return floor;
        });
    }

    private static byte[] littleEndian(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static long fromLittleEndian(byte[] v) {
        return ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }
}
