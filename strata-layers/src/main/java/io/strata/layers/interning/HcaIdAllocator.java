package io.strata.layers.interning;

import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.layers.allocator.HighContentionAllocator;

import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * IDs from FoundationDB's High Contention Allocator ({@link HighContentionAllocator}): each
 * ID is the integer behind one HCA prefix. Small, dense IDs (the HCA fills windows of 64,
 * 1024, then 8192 values from 0), at the price of one HCA allocation, with its counter ADD
 * and its reservation key, per ID: a batch of {@code n} strings costs {@code n} allocations,
 * issued together.
 *
 * <h2>Key layout</h2>
 * The HCA's, under the counters subspace: {@code (0, start)} attempt counters and
 * {@code (1, candidate)} reservations.
 *
 * <h2>Correctness</h2>
 * The HCA's argument: two committed transactions never reserve the same candidate, and a
 * transaction that committed under 1021 burns its candidates. Several HCA allocations may
 * run concurrently in one transaction, so a batch issues them all at once.
 */
public final class HcaIdAllocator implements IdAllocator {
    private final HighContentionAllocator hca;

    public HcaIdAllocator(Subspace counters) {
        this.hca = new HighContentionAllocator(counters);
    }

    /** Candidates picked from {@code random} (reproducible tests). */
    public HcaIdAllocator(Subspace counters, Random random) {
        this.hca = new HighContentionAllocator(counters, random);
    }

    @Override
    public CompletableFuture<long[]> allocate(Transaction tr, int count) {
        @SuppressWarnings("unchecked")
        CompletableFuture<byte[]>[] prefixes = new CompletableFuture[count];
        for (int i = 0; i < count; i++) {
            prefixes[i] = hca.allocate(tr);
        }
        return CompletableFuture.allOf(prefixes).thenApply(ignore -> {
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = Tuple.fromBytes(prefixes[i].join()).getLong(0);
            }
            return ids;
        });
    }
}
