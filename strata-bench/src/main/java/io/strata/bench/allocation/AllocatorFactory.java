package io.strata.bench.allocation;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.layers.allocator.PrefixAllocator;

/**
 * Makes one allocator for one benchmark cell. The allocator keeps all its state under
 * {@code root}, which is empty when the factory is called; {@code db} is for set-up the
 * allocator needs before the clients start (it is not timed).
 */
@FunctionalInterface
public interface AllocatorFactory {
    PrefixAllocator create(Database db, Subspace root);
}
