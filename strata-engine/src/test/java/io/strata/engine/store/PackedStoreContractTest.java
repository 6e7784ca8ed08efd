package io.strata.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PackedStore} against the {@link DiskStoreContract}. Its {@code approximateBytes} is
 * exact, and after each batch its tree must pass its own {@link PackedStore#verify} and its
 * {@code heapBytes()} hold at least the keys and values (0 when it holds no key).
 */
class PackedStoreContractTest extends DiskStoreContract {
    @Override
    protected DiskStore newStore() {
        return new PackedStore();
    }

    @Override
    protected boolean approximateBytesIsExact() {
        return true;
    }

    @Override
    protected void afterBatch(DiskStore store, int keys, long dataBytes) {
        PackedStore packed = (PackedStore) store;
        assertThat(packed.verify()).as("keys in the tree").isEqualTo(keys);
        assertThat(packed.dataBytes()).as("dataBytes()").isEqualTo(dataBytes);
        // At least the data, and, empty, no more than the hash index's smallest table.
        assertThat(packed.heapBytes()).as("heapBytes()").isGreaterThanOrEqualTo(dataBytes).isPositive();
        if (keys == 0) {
            assertThat(packed.heapBytes()).as("heapBytes() of an empty store").isLessThan(1024);
        }
    }
}
