package io.strata.layers.interning;

import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;

import java.util.concurrent.CompletableFuture;

/**
 * One hot counter: IDs 1, 2, 3, ... Kept to show, in {@code strata bench interning}, what
 * the sharded sequences avoid: every pair of concurrent allocations reads and writes the same
 * key, so at most one of them commits. It is {@link ShardedSequenceAllocator} with no
 * sequence bits and a 63-bit counter; the correctness argument is that class's.
 *
 * <h2>Key layout</h2>
 * <pre>
 * counters
 *   00 00 00 00 00 00 00 00 -&gt; last ID handed out, 8 bytes big-endian
 * </pre>
 */
public final class SingleCounterAllocator implements IdAllocator {
    private final ShardedSequenceAllocator counter;

    public SingleCounterAllocator(Subspace counters) {
        this.counter = new ShardedSequenceAllocator(counters, 0, 63);
    }

    @Override
    public CompletableFuture<long[]> allocate(Transaction tr, int count) {
        return counter.allocate(tr, count);
    }
}
