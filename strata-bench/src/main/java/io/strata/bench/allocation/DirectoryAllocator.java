package io.strata.bench.allocation;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import io.strata.layers.allocator.PrefixAllocator;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * fdb-java's own {@link DirectoryLayer} as a contender: each allocation creates a directory
 * at a path no one used before, {@code ("bench", n)}, and returns its prefix, which the
 * directory layer takes from its internal High Contention Allocator. So this measures the
 * official HCA plus the directory bookkeeping around it (the version check, the node
 * lookup, the prefix-free check, the node entry written).
 *
 * <p>Key layout under {@code root}: the directory layer's content subspace is {@code root}
 * itself and its node subspace is {@code root + 0xFE}, the same shape as the default
 * directory layer at the top of the key space; so everything it writes lies in
 * {@code root.range()}. The parent directory {@code ("bench")} is created when the
 * allocator is made, outside the timed loop, so the clients' first transactions do not all
 * race to create it.
 *
 * <p>Concurrency: {@code n} comes from a shared counter, so two attempts never use the same
 * path; an attempt that is retried simply leaves its {@code n} unused.
 */
final class DirectoryAllocator implements PrefixAllocator {
    private static final byte NODE_SUBSPACE_BYTE = (byte) 0xFE;

    private final DirectorySubspace parent;
    private final AtomicLong next = new AtomicLong();

    DirectoryAllocator(Database db, Subspace root) {
        DirectoryLayer layer = new DirectoryLayer(
                new Subspace(ByteArrayUtil.join(root.getKey(), new byte[] {NODE_SUBSPACE_BYTE})), root);
        this.parent = db.run(tr -> layer.createOrOpen(tr, List.of("bench")).join());
    }

    @Override
    public CompletableFuture<byte[]> allocate(Transaction tr) {
        String name = Long.toString(next.getAndIncrement());
        return parent.createOrOpen(tr, List.of(name)).thenApply(DirectorySubspace::getKey);
    }
}
