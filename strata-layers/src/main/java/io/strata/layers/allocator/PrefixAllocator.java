package io.strata.layers.allocator;

import com.apple.foundationdb.Transaction;

import java.util.concurrent.CompletableFuture;

/**
 * Hands out byte strings that no other allocation from the same allocator state ever
 * returns — the short prefixes that directories and interned IDs are built on.
 *
 * <p>Contract: {@link #allocate} works inside the caller's transaction; the allocation is
 * real only if that transaction commits, and two transactions that both commit never
 * receive the same result. Implementations say in their Javadoc how they guarantee this
 * under concurrency and under {@code commit_unknown_result} (1021).
 */
public interface PrefixAllocator {
    /** Allocates within {@code tr}; the caller commits. */
    CompletableFuture<byte[]> allocate(Transaction tr);
}
