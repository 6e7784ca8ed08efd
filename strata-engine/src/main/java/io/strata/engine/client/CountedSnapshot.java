package io.strata.engine.client;

import com.apple.foundationdb.EventKeeper;
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
 * {@code snapshot()} of a {@link CountedTransaction}: snapshot reads of the engine's
 * transaction, counted as fdb-java's {@code FDBTransaction.ReadSnapshot} counts them — the same
 * events as the serializable calls it forwards to, and nothing for the conflict-range calls it
 * answers itself.
 */
final class CountedSnapshot extends ReadOverloads {
    private final CountedTransaction counted;
    private final EngineTransaction tx;
    private final EventKeeper keeper;

    CountedSnapshot(CountedTransaction counted, EngineTransaction tx, EventKeeper keeper) {
        this.counted = counted;
        this.tx = tx;
        this.keeper = keeper;
    }

    @Override
    AsyncIterable<KeyValue> range(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode) {
        return tx.range(begin, end, limit, reverse, mode, true, new RangeQueryEvents(keeper));
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
        return counted.getReadVersion();
    }

    @Override
    public void setReadVersion(long version) {
        counted.setReadVersion(version);
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
        counted.jniCall();
        return FetchedBytes.counted(tx.get(key, true), keeper);
    }

    @Override
    public CompletableFuture<byte[]> getKey(KeySelector selector) {
        counted.jniCall();
        return FetchedBytes.counted(tx.getKey(selector, true), keeper);
    }

    @Override
    public AsyncIterable<MappedKeyValue> getMappedRange(KeySelector begin, KeySelector end, byte[] mapper, int limit, boolean reverse,
                                                        StreamingMode mode) {
        return tx.snapshot().getMappedRange(begin, end, mapper, limit, reverse, mode);
    }

    @Override
    public CompletableFuture<Long> getEstimatedRangeSizeBytes(byte[] begin, byte[] end) {
        return counted.getEstimatedRangeSizeBytes(begin, end);
    }

    @Override
    public CompletableFuture<KeyArrayResult> getRangeSplitPoints(byte[] begin, byte[] end, long chunkSize) {
        return counted.getRangeSplitPoints(begin, end, chunkSize);
    }

    @Override
    public CompletableFuture<KeyRangeArrayResult> getBlobGranuleRanges(byte[] begin, byte[] end, int rowLimit) {
        return counted.getBlobGranuleRanges(begin, end, rowLimit);
    }

    @Override
    public TransactionOptions options() {
        return counted.options();
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
