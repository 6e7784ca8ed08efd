package io.strata.engine.store;

import io.strata.engine.cluster.ShardMap;
import io.strata.engine.disk.RocksDiskStore;
import io.strata.engine.util.ByteKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's shard map (served as {@code \xff/keyServers/} and in status json) over a disk
 * store: past the walk limit it comes from the disk store's statistics, and must describe the
 * same shards the exact walk finds — the same count, boundaries at stored keys near the walk's,
 * sizes close to the exact ones.
 */
class DiskShardMapTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("k%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aLargeDatabaseOnDiskIsMappedFromStatisticsLikeTheWalkMapsIt() throws Exception {
        try (VersionedStore store = new VersionedStore(RocksDiskStore.open(dir, 8 << 20), "test-catch-up")) {
            byte[] value = new byte[1_000];
            new Random(11).nextBytes(value); // as incompressible as most values
            long version = 0;
            // 46,000 keys, about 46 MB: more than FoundationDB's smallest maximum shard (40 MB),
            // so the map has boundaries; on disk, with a few more keys only in the window.
            for (int batch = 0; batch < 450; batch++) {
                version++;
                for (int i = batch * 100; i < batch * 100 + 100; i++) {
                    store.set(key(i), value, version);
                }
            }
            DiskTestData.moveWindowToDisk(store, version);
            version++;
            for (int i = 45_000; i < 46_000; i++) {
                store.set(key(i), value, version);
            }
            store.set(new byte[] {(byte) 0xff, 's'}, new byte[100], version); // a system key

            store.splitWalkLimit(Long.MAX_VALUE);
            ShardMap.Shards walked = new ShardMap(store, 1, 2).at(version);
            store.splitWalkLimit(0);
            ShardMap.Shards estimated = new ShardMap(store, 1, 2).at(version);

            assertThat(walked.count()).as("46 MB makes shards of half the maximum").isEqualTo(2);
            assertThat(estimated.count()).isEqualTo(walked.count());
            assertThat(estimated.begins().get(0)).isEqualTo(ByteKeys.EMPTY);
            for (int i = 1; i < estimated.count(); i++) {
                byte[] boundary = estimated.begins().get(i);
                assertThat(store.get(boundary, version)).as("a stored key").isNotNull();
                long offset = bytesBefore(store, boundary, version);
                long exactOffset = bytesBefore(store, walked.begins().get(i), version);
                assertThat((double) offset).as("where the estimate cuts, against the walk")
                        .isBetween(exactOffset * 0.9, exactOffset * 1.1);
            }
            assertThat((double) estimated.totalBytes()).isBetween(walked.totalBytes() * 0.9, walked.totalBytes() * 1.1);
            long shardSum = 0;
            for (long b : estimated.bytes()) {
                shardSum += b;
            }
            assertThat((double) shardSum).isBetween(estimated.totalBytes() * 0.9, estimated.totalBytes() * 1.1);
            assertThat(walked.systemBytes()).isEqualTo(102);
            assertThat(estimated.systemBytes()).isEqualTo(102); // in the window: counted exactly
        }
    }

    /** The exact bytes of keys and values before {@code key}. */
    private static long bytesBefore(VersionedStore store, byte[] key, long version) {
        long bytes = 0;
        try (StoreRange r = store.range(ByteKeys.EMPTY, key, version, false)) {
            while (r.hasNext()) {
                Map.Entry<byte[], byte[]> e = r.next();
                bytes += e.getKey().length + e.getValue().length;
            }
        }
        return bytes;
    }
}
