package io.strata.engine.client;

import com.apple.foundationdb.KeyRangeArrayResult;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.engine.util.ByteKeys;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The parts of fdb-java's {@link Transaction} that reduce to other calls, as
 * {@link ReadOverloads} does for reads: single-key conflict ranges and clears as ranges,
 * {@code Range} arguments as their ends, the non-snapshot conflict calls, the
 * {@code run}/{@code read} contexts that just apply the function to this transaction, and the
 * calls the engine does not support.
 *
 * <p>Separate so that {@link EngineTransaction} holds only the calls that touch its state; none
 * of these does, except through the primitive calls, which keep their own synchronization.
 */
abstract class TransactionOverloads extends ReadOverloads implements Transaction {

    @Override
    public CompletableFuture<KeyRangeArrayResult> getBlobGranuleRanges(byte[] begin, byte[] end, int rowLimit) {
        return Unsupported.failed("blob granules");
    }

    @Override
    public boolean isSnapshot() {
        return false;
    }

    @Override
    public boolean addReadConflictRangeIfNotSnapshot(byte[] begin, byte[] end) {
        addReadConflictRange(begin, end);
        return true;
    }

    @Override
    public boolean addReadConflictKeyIfNotSnapshot(byte[] key) {
        addReadConflictKey(key);
        return true;
    }

    @Override
    public void addReadConflictKey(byte[] key) {
        addReadConflictRange(key, ByteKeys.keyAfter(key));
    }

    @Override
    public void addWriteConflictKey(byte[] key) {
        addWriteConflictRange(key, ByteKeys.keyAfter(key));
    }

    @Override
    public void clear(Range range) {
        clear(range.begin, range.end);
    }

    @Override
    public void clearRangeStartsWith(byte[] prefix) {
        clear(Range.startsWith(prefix));
    }

    // ---------------------------------------------------------------- contexts

    @Override
    public <T> T run(Function<? super Transaction, T> retryable) {
        return retryable.apply(this);
    }

    @Override
    public <T> CompletableFuture<T> runAsync(Function<? super Transaction, ? extends CompletableFuture<T>> retryable) {
        return applySafely(retryable, this);
    }

    @Override
    public <T> T read(Function<? super ReadTransaction, T> retryable) {
        return retryable.apply(this);
    }

    @Override
    public <T> CompletableFuture<T> readAsync(Function<? super ReadTransaction, ? extends CompletableFuture<T>> retryable) {
        return applySafely(retryable, this);
    }

    /** Runs {@code fn}, turning a thrown exception or a null future into a failed future. */
    static <I, T> CompletableFuture<T> applySafely(Function<? super I, ? extends CompletableFuture<T>> fn, I input) {
        try {
            CompletableFuture<T> f = fn.apply(input);
            return f != null ? f : CompletableFuture.failedFuture(new NullPointerException("the function returned a null future"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
