package io.strata.bench.stores;

import io.strata.engine.store.DiskStore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link DiskStore.Batch} that only records its operations, in order, for a store that
 * applies them itself inside its own transaction or commit (MVStore, LMDB).
 */
final class OpBatch implements DiskStore.Batch {
    /** A put ({@code value} set), a delete ({@code value} and {@code end} null) or a range delete ({@code end} set). */
    record Op(byte[] key, byte[] value, byte[] end) {
    }

    final List<Op> ops = new ArrayList<>();

    @Override
    public void put(byte[] key, byte[] value) {
        ops.add(new Op(key, value, null));
    }

    @Override
    public void delete(byte[] key) {
        ops.add(new Op(key, null, null));
    }

    @Override
    public void deleteRange(byte[] begin, byte[] end) {
        if (Arrays.compareUnsigned(begin, end) < 0) {
            ops.add(new Op(begin, null, end));
        }
    }

    @Override
    public int size() {
        return ops.size();
    }

    @Override
    public void clear() {
        ops.clear();
    }

    @Override
    public void close() {
    }
}
