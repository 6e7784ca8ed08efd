package io.strata.redis.keyspace;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;

import java.util.concurrent.CompletableFuture;

/**
 * What a key takes in the database, for MEMORY USAGE and for eviction: its name, its
 * metadata record and, for a collection or a large value, the bytes of its elements —
 * counted exactly up to {@link #EXACT_ELEMENTS} records, estimated by the database beyond
 * ({@code getEstimatedRangeSizeBytes}), so that sizing a huge collection reads a thousand
 * records, not all of them.
 */
public final class KeySizes {
    /** Records of a collection counted one by one before the database's estimate is used. */
    public static final int EXACT_ELEMENTS = 1000;
    /** What every key costs besides its bytes: its metadata header, counters, change stamp. */
    public static final int KEY_OVERHEAD = 48;

    private KeySizes() {
    }

    /** The bytes {@code key}, whose metadata is {@code meta}, takes in database {@code db}. */
    public static CompletableFuture<Long> of(ReadTransaction tr, KeyStore keys, int db, byte[] key, KeyMeta meta) {
        long own = KEY_OVERHEAD + key.length + meta.encode().length;
        if (!meta.isObject()) {
            return CompletableFuture.completedFuture(own);
        }
        return elementBytes(tr, keys.objectOf(db, meta).range()).thenApply(n -> own + n);
    }

    private static CompletableFuture<Long> elementBytes(ReadTransaction tr, Range range) {
        return tr.getRange(range, EXACT_ELEMENTS + 1).asList().thenCompose(kvs -> {
            long exact = 0;
            for (KeyValue kv : kvs) {
                exact += kv.getKey().length + kv.getValue().length;
            }
            if (kvs.size() <= EXACT_ELEMENTS) {
                return CompletableFuture.completedFuture(exact);
            }
            long counted = exact;
            return tr.getEstimatedRangeSizeBytes(range).thenApply(estimate -> Math.max(counted, estimate));
        });
    }
}
