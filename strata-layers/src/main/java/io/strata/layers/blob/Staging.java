package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncUtil;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * A value written in many transactions under a fresh id, then switched in: {@link #begin}
 * writes the staging record, {@link #put} writes chunks and renews the lease, {@link #commit}
 * points the head at the id. See {@link BlobStore}'s class notes for the argument.
 */
final class Staging {
    private final BlobLayout layout;
    private final BlobEdits edits;
    private final long leaseVersions;

    Staging(BlobLayout layout, BlobEdits edits, BlobSettings settings) {
        this.layout = layout;
        this.edits = edits;
        this.leaseVersions = settings.leaseVersions();
    }

    /**
     * Allocates an id and records it as staging. Under 1021 a retry allocates another id; the
     * record of the first, if it committed, is left to cleanup.
     */
    CompletableFuture<Long> begin(Database db, byte[] name) {
        return db.runAsync(tr -> edits.newId(tr).thenCompose(id -> renewLease(tr, id, name, false).thenApply(ignore -> id)));
    }

    /**
     * Stores {@code length} bytes of {@code data} from {@code from} as chunks
     * {@code firstIndex, firstIndex + 1, ...} of {@code id} (chunk size {@code chunkSize}; all
     * but the last full), in one transaction that first checks the staging is still live and
     * renews its lease. Idempotent, so a retry under 1021 is harmless.
     */
    CompletableFuture<Void> put(Database db, long id, byte[] name, long firstIndex, byte[] data, int from, int length,
                                int chunkSize) {
        return db.runAsync(tr -> liveRecord(tr, id).thenCompose(record -> {
            if (record.committed()) {
                throw new IllegalStateException("blob id " + id + " is committed; its chunks can no longer be staged");
            }
            for (int at = 0, i = 0; at < length; at += chunkSize, i++) {
                tr.set(layout.chunk(id, firstIndex + i), Arrays.copyOfRange(data, from + at, from + Math.min(at + chunkSize, length)));
            }
            return renewLease(tr, id, name, false);
        }));
    }

    /**
     * Switches {@code name} to the staged value in one small transaction: the old value's
     * chunks are cleared, the head points at {@code id}, the record says committed. A retry
     * after 1021 finds the record committed and does nothing. Then the record is removed in a
     * transaction of its own.
     */
    CompletableFuture<Void> commit(Database db, long id, byte[] name, long length, int chunkSize) {
        byte[] headKey = layout.head(name);
        return db.runAsync(tr -> liveRecord(tr, id).thenCompose(record -> {
                    if (record.committed()) {
                        return CompletableFuture.completedFuture(null);
                    }
                    return tr.get(headKey).thenCompose(old -> {
                        if (old != null) {
                            tr.clear(layout.chunksOf(BlobHead.decode(old).id()));
                        }
                        tr.set(headKey, new BlobHead(id, length, 0, chunkSize).encode());
                        return renewLease(tr, id, name, true);
                    });
                }))
                .thenCompose(ignore -> forget(db, id));
    }

    /**
     * The whole of {@code value} staged {@code batchBytes} at a time and committed; on failure
     * the staging is aborted (or left to cleanup if even that fails) and the failure reported.
     */
    CompletableFuture<Void> writeAll(Database db, byte[] name, byte[] value, int chunkSize, int batchBytes) {
        return begin(db, name).thenCompose(id -> {
            int[] staged = {0};
            return AsyncUtil.whileTrue(() -> {
                        int n = Math.min(batchBytes, value.length - staged[0]);
                        return put(db, id, name, staged[0] / chunkSize, value, staged[0], n, chunkSize).thenApply(ignore -> {
                            staged[0] += n;
                            return staged[0] < value.length;
                        });
                    }, db.getExecutor())
                    .thenCompose(ignore -> commit(db, id, name, value.length, chunkSize))
                    .exceptionallyCompose(failure -> abort(db, id)
                            .handle((ignore, abortFailure) -> null)
                            .thenCompose(ignore -> CompletableFuture.failedFuture(Futures.cause(failure))));
        });
    }

    /** Removes a staging that has not committed, record and chunks; nothing if it committed or is gone. */
    CompletableFuture<Void> abort(Database db, long id) {
        return db.runAsync(tr -> tr.get(layout.staging(id)).thenAccept(value -> {
            if (value != null && !StagingRecord.decode(value).committed()) {
                tr.clear(layout.staging(id));
                tr.clear(layout.chunksOf(id));
            }
        }));
    }

    /** Drops the committed record; cleanup would do it after the lease otherwise. */
    private CompletableFuture<Void> forget(Database db, long id) {
        return db.runAsync(tr -> {
            tr.clear(layout.staging(id));
            return CompletableFuture.completedFuture(null);
        });
    }

    /** The record, read serializably (so a concurrent cleanup conflicts); fails when cleanup removed it. */
    private CompletableFuture<StagingRecord> liveRecord(Transaction tr, long id) {
        return tr.get(layout.staging(id)).thenCompose(value -> value == null
                ? CompletableFuture.failedFuture(new StagingAbandonedException(id))
                : CompletableFuture.completedFuture(StagingRecord.decode(value)));
    }

    private CompletableFuture<Void> renewLease(Transaction tr, long id, byte[] name, boolean committed) {
        return tr.getReadVersion().thenAccept(version ->
                tr.set(layout.staging(id), new StagingRecord(committed, version + leaseVersions, name).encode()));
    }
}
