package io.strata.bench.memory;

import java.util.Arrays;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The reference row: a {@code ConcurrentSkipListMap<byte[], byte[]>} ordered by
 * {@link Arrays#compareUnsigned(byte[], byte[])} (FoundationDB's key order) holding its own
 * copies of the pairs — what a bare ordered map on the heap costs, with no versions, no
 * conflict history and no index beside it.
 */
final class SkipListTarget implements MemoryTarget {
    private final ConcurrentSkipListMap<byte[], byte[]> map = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);

    @Override
    public String name() {
        return SKIP_LIST;
    }

    @Override
    public void load(PairData data, long first, int count) {
        for (long i = first; i < first + count; i++) {
            map.put(data.key(i), data.value(i));
        }
    }

    @Override
    public boolean holds(byte[] key, byte[] value) {
        return Arrays.equals(map.get(key), value);
    }

    @Override
    public boolean hasWindow() {
        return false;
    }

    @Override
    public void close() {
        map.clear();
    }
}
