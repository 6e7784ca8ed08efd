package io.strata.engine.disk;

import io.strata.engine.store.DiskStore;
import io.strata.engine.store.DiskStoreContract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * {@link RocksDiskStore} against the {@link DiskStoreContract}, each store in a directory of
 * its own, deleted when the store is disposed of. Its {@code approximateBytes} is RocksDB's
 * estimate, so only its sign is checked.
 */
class RocksDiskStoreContractTest extends DiskStoreContract {
    /** A small cache: the contract's stores hold a few megabytes at most. */
    private static final long CACHE_BYTES = 4 << 20;

    private final Map<DiskStore, Path> directories = new ConcurrentHashMap<>();

    @Override
    protected DiskStore newStore() throws IOException {
        Path directory = Files.createTempDirectory("strata-rocks-contract");
        RocksDiskStore store = RocksDiskStore.open(directory, CACHE_BYTES);
        directories.put(store, directory);
        return store;
    }

    @Override
    protected void dispose(DiskStore store) throws IOException {
        store.close();
        Path directory = directories.remove(store);
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
