package io.strata.layers.ordering;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs the asynchronous operations a layer issues on one transaction one after the other,
 * in the order they were issued, even when the caller issues them all at once.
 *
 * <h2>Why a layer needs it</h2>
 * A layer operation typically reads a key and then writes it (a counter, a directory node).
 * Two such operations in flight together on one transaction would both read the value from
 * before either wrote, and both act on it: two allocations take the same ID, two creations
 * make the same directory. Run in issue order, each starts once the previous one completed
 * (successfully or not) and reads its writes (read-your-writes).
 *
 * <h2>What it keeps</h2>
 * For each transaction (by identity) with an operation in flight, the last one issued; the
 * entry leaves when that operation completes, so a transaction nobody is operating on is
 * never referenced from here. Not a {@code WeakHashMap}: a young collection that moves a weak
 * entry into the old generation treats its key as strongly reachable, and under a bulk load
 * nearly every entry moves there, so every transaction would be kept until a full collection
 * (docs/benchmarks.md, section 6).
 *
 * <p>A caller must not block on a later operation from inside an earlier one's callbacks on
 * the same transaction before the earlier one completes: the later one waits for it.
 * Thread-safe.
 */
public final class PerTransactionOrder {
    private final Map<Object, CompletableFuture<?>> tails = new IdentityHashMap<>();

    /**
     * Starts {@code operation} once every operation issued earlier through this object on the
     * same {@code transaction} has completed; at once, on the calling thread, if none is in
     * flight.
     *
     * @return the operation's result; failed if {@code operation} threw
     */
    public <T> CompletableFuture<T> run(Object transaction, Supplier<CompletableFuture<T>> operation) {
        CompletableFuture<T> result;
        synchronized (tails) {
            CompletableFuture<?> previous = tails.get(transaction);
            // Composed even when nothing is in flight, so an operation that throws fails its
            // future rather than its caller, as when it waited.
            CompletableFuture<Void> ready = previous == null
                    ? CompletableFuture.completedFuture(null)
                    : previous.handle((value, error) -> null);
            result = ready.thenCompose(ignore -> operation.get());
            tails.put(transaction, result);
        }
        CompletableFuture<T> issued = result;
        // The caller gets the stage after the removal, so that whatever it runs on completion
        // (its commit, a count of transactions in flight) already sees the entry gone:
        // dependents of one future run in no promised order.
        return result.whenComplete((value, error) -> {
            synchronized (tails) {
                if (tails.get(transaction) == issued) { // else a later operation is queued behind it
                    tails.remove(transaction);
                }
            }
        });
    }

    /** How many transactions have an operation in flight. */
    public int transactionsInFlight() {
        synchronized (tails) {
            return tails.size();
        }
    }
}
