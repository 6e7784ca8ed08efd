package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.EventKeeper;
import com.apple.foundationdb.EventKeeper.Events;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyArrayResult;
import com.apple.foundationdb.KeyRangeArrayResult;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MappedKeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.OptionConsumer;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.TransactionOptions;
import com.apple.foundationdb.async.AsyncIterable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A transaction made with an {@link EventKeeper}: the engine's transaction, with the events
 * fdb-java 7.3.68's {@code FDBTransaction} records counted call by call.
 *
 * <h2>What is counted</h2>
 * One {@code JNI_CALL} for every call fdb-java makes one native call for, before the call
 * (so a call that then throws, on a closed transaction say, is counted too): reads, writes,
 * conflict ranges, options, {@code commit}, {@code getCommittedVersion},
 * {@code getVersionstamp}, {@code getApproximateSize}, {@code getEstimatedRangeSizeBytes},
 * {@code watch}, {@code cancel}, an {@code onError} given an {@code FDBException}, and the first
 * {@code close}. {@code set} and {@code clear} check for null arguments before counting, as
 * fdb-java does in Java; {@code getRangeSplitPoints} and {@code getBlobGranuleRanges} count
 * nothing (fdb-java does not count them); neither do the calls fdb-java answers in Java
 * ({@code getDatabase}, {@code snapshot}, the {@code run}/{@code read} contexts, an
 * {@code onError} given anything else). {@code get}, {@code getKey} and {@code getVersionstamp}
 * add the length of what they return to {@code BYTES_FETCHED} ({@link FetchedBytes}); range
 * reads, mapped ones too ({@code MappedRangeQuery} counts as {@code RangeQuery} does), count as
 * {@link RangeQueryEvents} says. The overloads reduce to the primitive calls
 * ({@link TransactionOverloads}) exactly as fdb-java's do, so each counts once.
 *
 * <p>{@code onError} counts its own call and the close of this transaction that it implies
 * ({@code FDBTransaction.onError} transfers the native transaction and closes this wrapper);
 * the transaction it hands back has <em>no</em> keeper, because {@code FDBTransaction.transfer}
 * makes it without one. So a retry loop records the events of its first attempt only, on a
 * real cluster and here alike.
 *
 * <h2>Why a wrapper</h2>
 * Only transactions made with a keeper pay anything: {@link EngineDatabase} hands out the bare
 * {@link EngineTransaction} otherwise. The wrapper holds no transaction state; every call goes
 * to the engine's transaction unchanged, and what fdb-java counts is a property of the API
 * call, not of what the engine does inside it (a watch's own read, for instance, is no call).
 *
 * <h2>Concurrency</h2>
 * As in fdb-java, events are counted on the calling thread, outside the transaction's monitor,
 * so a slow keeper delays only its caller; completion events are counted on the thread that
 * completes the future. The keeper must be thread-safe.
 */
final class CountedTransaction extends TransactionOverloads {
    private final EngineTransaction tx;
    private final EventKeeper keeper;
    private final TransactionOptions options;
    private final CountedSnapshot snapshot;
    /** fdb-java counts the native dispose of the first close only ({@code NativeObjectWrapper.close}). */
    private final AtomicBoolean closed = new AtomicBoolean();

    CountedTransaction(EngineTransaction tx, EventKeeper keeper) {
        this.tx = tx;
        this.keeper = keeper;
        OptionConsumer target = tx.options().getOptionConsumer();
        this.options = new TransactionOptions((code, param) -> {
            jniCall();
            target.setOption(code, param);
        });
        this.snapshot = new CountedSnapshot(this, tx, keeper);
    }

    void jniCall() {
        keeper.increment(Events.JNI_CALL);
    }

    // ---------------------------------------------------------------- reads

    @Override
    public TransactionOptions options() {
        return options;
    }

    @Override
    public ReadTransaction snapshot() {
        return snapshot;
    }

    @Override
    public CompletableFuture<Long> getReadVersion() {
        jniCall();
        return tx.getReadVersion();
    }

    @Override
    public void setReadVersion(long version) {
        jniCall();
        tx.setReadVersion(version);
    }

    @Override
    public CompletableFuture<byte[]> get(byte[] key) {
        jniCall();
        return FetchedBytes.counted(tx.get(key, false), keeper);
    }

    @Override
    public CompletableFuture<byte[]> getKey(KeySelector selector) {
        jniCall();
        return FetchedBytes.counted(tx.getKey(selector, false), keeper);
    }

    @Override
    AsyncIterable<KeyValue> range(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode) {
        return tx.range(begin, end, limit, reverse, mode, false, new RangeQueryEvents(keeper));
    }

    @Override
    public AsyncIterable<MappedKeyValue> getMappedRange(KeySelector begin, KeySelector end, byte[] mapper, int limit, boolean reverse,
                                                        StreamingMode mode) {
        return tx.getMappedRange(begin, end, mapper, limit, reverse, mode, new RangeQueryEvents(keeper));
    }

    @Override
    public CompletableFuture<Long> getEstimatedRangeSizeBytes(byte[] begin, byte[] end) {
        jniCall();
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

    // ---------------------------------------------------------------- writes

    @Override
    public void addReadConflictRange(byte[] begin, byte[] end) {
        jniCall();
        tx.addReadConflictRange(begin, end);
    }

    @Override
    public void addWriteConflictRange(byte[] begin, byte[] end) {
        jniCall();
        tx.addWriteConflictRange(begin, end);
    }

    @Override
    public void set(byte[] key, byte[] value) {
        if (key != null && value != null) {
            jniCall();
        }
        tx.set(key, value);
    }

    @Override
    public void clear(byte[] key) {
        if (key != null) {
            jniCall();
        }
        tx.clear(key);
    }

    @Override
    public void clear(byte[] begin, byte[] end) {
        if (begin != null && end != null) {
            jniCall();
        }
        tx.clear(begin, end);
    }

    @Override
    public void mutate(MutationType type, byte[] key, byte[] param) {
        jniCall();
        tx.mutate(type, key, param);
    }

    @Override
    public CompletableFuture<Void> watch(byte[] key) throws FDBException {
        jniCall();
        return tx.watch(key);
    }

    // ---------------------------------------------------------------- commit and lifecycle

    @Override
    public CompletableFuture<Void> commit() {
        jniCall();
        return tx.commit();
    }

    @Override
    public Long getCommittedVersion() {
        jniCall();
        return tx.getCommittedVersion();
    }

    @Override
    public CompletableFuture<byte[]> getVersionstamp() {
        jniCall();
        return FetchedBytes.counted(tx.getVersionstamp(), keeper);
    }

    @Override
    public CompletableFuture<Long> getApproximateSize() {
        jniCall();
        return tx.getApproximateSize();
    }

    @Override
    public CompletableFuture<Transaction> onError(Throwable error) {
        Throwable e = (error instanceof CompletionException || error instanceof ExecutionException)
                && error.getCause() != null ? error.getCause() : error;
        if (!(e instanceof FDBException)) {
            return tx.onError(error);
        }
        jniCall();
        CompletableFuture<Transaction> next = tx.onError(error);
        // FDBTransaction.onError then closes this wrapper, which counts its dispose call.
        if (closed.compareAndSet(false, true)) {
            jniCall();
        }
        return next;
    }

    @Override
    public void cancel() {
        jniCall();
        tx.cancel();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            jniCall();
        }
        tx.close();
    }

    @Override
    public Database getDatabase() {
        return tx.getDatabase();
    }

    @Override
    public Executor getExecutor() {
        return tx.getExecutor();
    }
}
