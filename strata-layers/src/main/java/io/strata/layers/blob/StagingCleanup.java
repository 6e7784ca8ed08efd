package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncUtil;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Removes staging records whose lease ended before the cleaner's read version: a staging one
 * with its chunks (a writer that crashed or stalled), a committed one alone (a writer that
 * committed but did not get to remove its record). Records are found by a snapshot scan, so
 * a cleaner does not conflict with live writers; each expired one is re-read serializably
 * before it is removed, so a writer renewing that lease at the same time and the cleaner
 * conflict, and one of the two retries and sees the other's result.
 */
final class StagingCleanup {
    /** Records examined per transaction: few reads and clears, far inside every limit. */
    static final int RECORDS_PER_TRANSACTION = 100;

    private final BlobLayout layout;

    StagingCleanup(BlobLayout layout) {
        this.layout = layout;
    }

    /** Completes with how many records were removed. */
    CompletableFuture<Integer> run(Database db) {
        AtomicInteger removed = new AtomicInteger();
        byte[][] cursor = {layout.staging.range().begin};
        return AsyncUtil.whileTrue(() -> db.runAsync(tr -> page(tr, new Range(cursor[0], layout.staging.range().end)))
                .thenApply(page -> {
                    removed.addAndGet(page.removed);
                    if (page.lastKey == null) {
                        return false;
                    }
                    cursor[0] = strictlyAfter(page.lastKey);
                    return page.full;
                }), db.getExecutor())
                .thenApply(ignore -> removed.get());
    }

    private record Page(int removed, byte[] lastKey, boolean full) {}

    private CompletableFuture<Page> page(Transaction tr, Range range) {
        return tr.getReadVersion().thenCompose(version -> tr.snapshot().getRange(range, RECORDS_PER_TRANSACTION).asList()
                .thenCompose(kvs -> {
                    List<CompletableFuture<Boolean>> removals = new ArrayList<>();
                    for (KeyValue kv : kvs) {
                        if (StagingRecord.decode(kv.getValue()).expiredAt(version)) {
                            removals.add(removeIfExpired(tr, kv.getKey(), version));
                        }
                    }
                    return CompletableFuture.allOf(removals.toArray(new CompletableFuture[0])).thenApply(ignore -> {
                        int removed = (int) removals.stream().filter(CompletableFuture::join).count();
                        byte[] last = kvs.isEmpty() ? null : kvs.get(kvs.size() - 1).getKey();
                        return new Page(removed, last, kvs.size() == RECORDS_PER_TRANSACTION);
                    });
                }));
    }

    private CompletableFuture<Boolean> removeIfExpired(Transaction tr, byte[] key, long version) {
        return tr.get(key).thenApply(value -> {
            if (value == null) {
                return false;
            }
            StagingRecord record = StagingRecord.decode(value);
            if (!record.expiredAt(version)) {
                return false;
            }
            tr.clear(key);
            if (!record.committed()) {
                tr.clear(layout.chunksOf(layout.idOfStaging(key)));
            }
            return true;
        });
    }

    /** {@code key ++ 0x00}: the first key after {@code key}. */
    private static byte[] strictlyAfter(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }
}
