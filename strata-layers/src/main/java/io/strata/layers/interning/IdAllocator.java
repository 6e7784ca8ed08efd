package io.strata.layers.interning;

import com.apple.foundationdb.Transaction;

import java.util.concurrent.CompletableFuture;

/**
 * Hands out uint64 IDs inside a transaction, for a {@link StringInterner}.
 *
 * <p>Contract: of all the IDs returned to transactions that <em>commit</em>, no two are equal,
 * and none equals an ID returned to a transaction that committed earlier. IDs returned to a
 * transaction that does not commit may be handed out again; IDs of a transaction that
 * committed but whose caller never learned so (1021) may be burned. An allocator keeps its
 * state under the subspace it was built on, which the interner gives it apart from its
 * mappings, so that no allocator key can ever equal a mapping key.
 *
 * <p>Allocators whose IDs are known only at commit (versionstamps) do not fit this
 * interface; see {@link VersionstampIdAllocator}.
 */
public interface IdAllocator {
    /**
     * Reserves {@code count} distinct IDs in {@code tr}, treating them as Java {@code long}s
     * holding unsigned 64-bit values. Calls in the same transaction may overlap; an
     * implementation serializes what must be.
     *
     * @throws IllegalStateException (in the future) when the ID space is exhausted
     */
    CompletableFuture<long[]> allocate(Transaction tr, int count);
}
