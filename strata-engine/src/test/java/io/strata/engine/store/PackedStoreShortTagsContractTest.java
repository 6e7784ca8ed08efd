package io.strata.engine.store;

/**
 * {@link PackedStore} against the {@link DiskStoreContract} with an index of two-bit tags, so
 * that point reads, readers racing the writer included, keep finding their keys when many
 * keys share an index entry's tag.
 */
class PackedStoreShortTagsContractTest extends PackedStoreContractTest {
    @Override
    protected DiskStore newStore() {
        return new PackedStore(30);
    }
}
