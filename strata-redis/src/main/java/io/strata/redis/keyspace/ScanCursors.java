package io.strata.redis.keyspace;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Cursors of SCAN, HSCAN, SSCAN and ZSCAN. A Redis cursor is a number; here it names a record
 * in the database that holds the FoundationDB key the next call resumes after, so a cursor
 * stays valid across writes, across restarts and across server processes that share the
 * database — and the scan keeps Redis's guarantee (every element present for the whole scan is
 * returned at least once) because it walks keys in order.
 *
 * <h2>Key layout</h2>
 * <pre>
 * P 'c' cursor[8]  -&gt; created[8] (Unix ms, big-endian) ++ resume key
 * </pre>
 * A cursor is a random positive 63-bit number, so concurrent scans never contend on a
 * counter; 0 means "start" and "done", as in Redis. A number that names no record (made up,
 * or from another database) restarts the scan at the beginning, which Redis's guarantees
 * allow. Records older than {@link #RETENTION_MILLIS} are removed by {@link #expire}.
 */
public final class ScanCursors {
    /** How long a cursor stays usable: a day, far longer than any scan between two calls. */
    public static final long RETENTION_MILLIS = 24L * 3600 * 1000;

    private final Subspace table;

    public ScanCursors(Keyspace keyspace) {
        this.table = keyspace.area('c');
    }

    /** Records where a scan stopped and returns the cursor to give the client (never 0). */
    public long save(Transaction tr, byte[] resumeAfter, long nowMillis) {
        long cursor = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        byte[] value = ByteBuffer.allocate(8 + resumeAfter.length).putLong(nowMillis).put(resumeAfter).array();
        tr.set(key(cursor), value);
        return cursor;
    }

    /**
     * The key to resume after for {@code cursor}, or null to start at the beginning (cursor
     * 0, or one this database does not know). Read as a snapshot: concurrent scans do not
     * conflict.
     */
    public CompletableFuture<byte[]> load(ReadTransaction tr, long cursor) {
        if (cursor == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return tr.snapshot().get(key(cursor)).thenApply(v -> v == null ? null : Arrays.copyOfRange(v, 8, v.length));
    }

    /** Removes cursors saved before {@code nowMillis - RETENTION_MILLIS}, at most {@code limit} of them. */
    public CompletableFuture<Integer> expire(Transaction tr, long nowMillis, int limit) {
        return expire(tr, nowMillis, null, limit).thenApply(Sweep::removed);
    }

    /**
     * One step of a sweep over the cursor table: looks at up to {@code limit} records after
     * {@code after} (null: from the start) and removes those saved before
     * {@code nowMillis - RETENTION_MILLIS}. The records are read as a snapshot (a sweep never
     * conflicts with scans saving cursors); each removal is a blind clear of a record no one
     * writes again, since cursor numbers are never reused.
     */
    public CompletableFuture<Sweep> expire(Transaction tr, long nowMillis, byte[] after, int limit) {
        Range all = table.range();
        KeySelector begin = after == null ? KeySelector.firstGreaterOrEqual(all.begin) : KeySelector.firstGreaterThan(after);
        return tr.snapshot().getRange(begin, KeySelector.firstGreaterOrEqual(all.end), limit).asList().thenApply(kvs -> {
            int removed = 0;
            for (var kv : kvs) {
                long created = ByteBuffer.wrap(kv.getValue()).getLong();
                if (created < nowMillis - RETENTION_MILLIS) {
                    tr.clear(kv.getKey());
                    removed++;
                }
            }
            byte[] next = kvs.size() < limit ? null : kvs.get(kvs.size() - 1).getKey();
            return new Sweep(removed, next);
        });
    }

    /**
     * What one sweep step did.
     *
     * @param removed how many records it removed
     * @param resumeAfter where the next step starts, or null when the sweep reached the end
     */
    public record Sweep(int removed, byte[] resumeAfter) {
    }

    private byte[] key(long cursor) {
        return table.pack(com.apple.foundationdb.tuple.Tuple.from(cursor));
    }
}
