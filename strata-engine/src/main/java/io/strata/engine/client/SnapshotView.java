package io.strata.engine.client;

import com.apple.foundationdb.KeyArrayResult;
import com.apple.foundationdb.KeyRangeArrayResult;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MappedKeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.TransactionOptions;
import com.apple.foundationdb.async.AsyncIterable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * {@code Transaction.snapshot()}: the same transaction, read without adding read conflict
 * ranges. Snapshot reads still see the transaction's own writes unless
 * {@code snapshot_ryw_disable} is set.
 */
final class SnapshotView extends ReadOverloads {
    private final EngineTransaction tx;

    SnapshotView(EngineTransaction tx) {
        this.tx = tx;
    }

    @Override
    AsyncIterable<KeyValue> range(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode) {
        return tx.range(begin, end, limit, reverse, mode, true);
    }

    @Override
    public boolean isSnapshot() {
        return true;
    }

    @Override
    public ReadTransaction snapshot() {
        return this;
    }

    @Override
    public CompletableFuture<Long> getReadVersion() {
        return tx.getReadVersion();
    }

    @Override
    public void setReadVersion(long version) {
        tx.setReadVersion(version);
    }

    @Override
    public boolean addReadConflictRangeIfNotSnapshot(byte[] begin, byte[] end) {
        return false;
    }

    @Override
    public boolean addReadConflictKeyIfNotSnapshot(byte[] key) {
        return false;
    }

    @Override
    public CompletableFuture<byte[]> get(byte[] key) {
        return tx.get(key, true);
    }

    @Override
    public CompletableFuture<byte[]> getKey(KeySelector selector) {
        return tx.getKey(selector, true);
    }

    /**
     * fdb-java refuses a snapshot mapped read itself, before reaching the native client (whose
     * RYW would fail it with {@code unsupported_operation}): {@code FDBTransaction.ReadSnapshot}.
     */
    @Override
    public AsyncIterable<MappedKeyValue> getMappedRange(KeySelector begin, KeySelector end, byte[] mapper, int limit, boolean reverse, StreamingMode mode) {
        throw new UnsupportedOperationException("getMappedRange is only supported in serializable");
    }

    @Override
    public CompletableFuture<Long> getEstimatedRangeSizeBytes(byte[] begin, byte[] end) {
        return tx.getEstimatedRangeSizeBytes(begin, end);
    }

    @Override
    public CompletableFuture<KeyArrayResult> getRangeSplitPoints(byte[] begin, byte[] end, long chunkSize) {
        return tx.getRangeSplitPoints(begin, end, chunkSize);
    }

    @Override
    public CompletableFuture<KeyRangeArrayResult> getBlobGranuleRanges(byte[] begin, byte[] end, int rowLimit) {
        return tx.getBlobGranuleRanges(begin, end, rowLimit);
    }

    @Override
    public TransactionOptions options() {
        return tx.options();
    }

    @Override
    public <T> T read(Function<? super ReadTransaction, T> retryable) {
        return retryable.apply(this);
    }

    @Override
    public <T> CompletableFuture<T> readAsync(Function<? super ReadTransaction, ? extends CompletableFuture<T>> retryable) {
        return TransactionOverloads.applySafely(retryable, this);
    }

    @Override
    public Executor getExecutor() {
        return tx.getExecutor();
    }
}
