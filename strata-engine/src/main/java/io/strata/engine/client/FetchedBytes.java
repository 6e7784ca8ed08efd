package io.strata.engine.client;

import com.apple.foundationdb.EventKeeper;
import com.apple.foundationdb.EventKeeper.Events;

import java.util.concurrent.CompletableFuture;

/**
 * {@code BYTES_FETCHED} of a single-value read, as fdb-java's {@code FutureResult} and
 * {@code FutureKey} count it in {@code postMarshal}: the length of a value, key or
 * versionstamp that arrived, nothing for an absent value or a failure.
 *
 * <p>fdb-java counts just after completing the future; here the count comes first, so that
 * whoever sees the value sees it counted. A future that is already done (the engine answers
 * most reads at once) is counted and returned as is; a pending one is relayed through a copy
 * that completes after the count, with the same outcome (the error itself, not wrapped) and on
 * the same kind of executor.
 */
final class FetchedBytes {
    private FetchedBytes() {
    }

    static CompletableFuture<byte[]> counted(CompletableFuture<byte[]> f, EventKeeper keeper) {
        if (f.isDone()) {
            if (!f.isCompletedExceptionally()) {
                count(f.join(), keeper);
            }
            return f;
        }
        CompletableFuture<byte[]> copy = f instanceof ExecutorBoundFuture<byte[]> bound
                ? new ExecutorBoundFuture<>(bound.defaultExecutor())
                : new CompletableFuture<>();
        f.whenComplete((value, error) -> {
            if (error != null) {
                copy.completeExceptionally(error);
            } else {
                count(value, keeper);
                copy.complete(value);
            }
        });
        return copy;
    }

    private static void count(byte[] value, EventKeeper keeper) {
        if (value != null) {
            keeper.count(Events.BYTES_FETCHED, value.length);
        }
    }
}
