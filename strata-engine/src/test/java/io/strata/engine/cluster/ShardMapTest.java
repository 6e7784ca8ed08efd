package io.strata.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.engine.store.VersionedStore;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The engine's shard map follows FoundationDB's data-distribution sizing
 * ({@code getMaxShardSize}, {@code shardSplitter}): one shard up to the maximum shard size for the
 * database's size, pieces of half that beyond, no last piece below a quarter.
 */
class ShardMapTest {
    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void maxShardSizeIsFoundationDbs() {
        assertThat(ShardMap.maxShardBytes(0)).isEqualTo(40_000_000L);
        assertThat(ShardMap.maxShardBytes(1_000_000_000_000L)).isEqualTo((10_000_000L + 1_000_000L * 45) * 4);
        assertThat(ShardMap.maxShardBytes(100_000_000_000_000L)).isEqualTo(500_000_000L);
    }

    @Test
    void aSmallDatabaseIsOneShard() {
        VersionedStore store = new VersionedStore();
        for (int i = 0; i < 100; i++) {
            store.set(key(i), new byte[1000], 10);
        }
        ShardMap.Shards shards = new ShardMap(store, 1, 2).at(10);
        assertThat(shards.count()).isEqualTo(1);
        assertThat(shards.begins().get(0)).isEmpty();
        assertThat(shards.bytes()[0]).isEqualTo(shards.totalBytes()).isEqualTo(100 * (6 + 1000));
    }

    @Test
    void aLargeDatabaseIsCutIntoHalfMaximumPieces() {
        VersionedStore store = new VersionedStore();
        byte[] value = new byte[100_000];
        int keys = 1_000; // about 100 MB
        for (int i = 0; i < keys; i++) {
            store.set(key(i), value, 10);
        }
        ShardMap.Shards shards = new ShardMap(store, 1, 2).at(10);
        long total = shards.totalBytes();
        long max = ShardMap.maxShardBytes(total);
        assertThat(total).isEqualTo(keys * (6L + 100_000));
        long sum = 0;
        for (int i = 0; i < shards.count(); i++) {
            sum += shards.bytes()[i];
            if (i + 1 < shards.count()) {
                // Each cut falls at the first candidate past half the maximum (candidates every 1 MB).
                assertThat(shards.bytes()[i]).isBetween(max / 2, max / 2 + ShardMap.CANDIDATE_BYTES + 100_006);
            } else {
                // The last shard is at least a quarter maximum, and not so large that another cut fits.
                assertThat(shards.bytes()[i]).isGreaterThanOrEqualTo(max / 4).isLessThan(max / 2 + max / 4 + ShardMap.CANDIDATE_BYTES);
            }
        }
        assertThat(sum).isEqualTo(total);
        assertThat(shards.count()).isGreaterThan(1);
        for (int i = 1; i < shards.count(); i++) {
            assertThat(store.get(shards.begins().get(i), 10)).as("a boundary is a stored key").isNotNull();
        }
    }

    @Test
    void theMapIsKeptPerVersion() {
        VersionedStore store = new VersionedStore();
        store.set(key(1), new byte[10], 10);
        ShardMap map = new ShardMap(store, 1, 2);
        ShardMap.Shards first = map.at(10);
        assertThat(map.at(10)).isSameAs(first);
        store.set(key(2), new byte[10], 11);
        assertThat(map.at(11).totalBytes()).isEqualTo(2 * (6 + 10));
        assertThat(map.at(10).totalBytes()).isEqualTo(6 + 10);
    }

    @Test
    void systemBytesAreCountedApart() {
        VersionedStore store = new VersionedStore();
        store.set(key(1), new byte[10], 10);
        store.set(new byte[] {(byte) 0xff, 'x'}, new byte[3], 10);
        ShardMap.Shards shards = new ShardMap(store, 1, 2).at(10);
        assertThat(shards.systemBytes()).isEqualTo(5);
        assertThat(shards.totalBytes()).isEqualTo(16 + 5);
    }
}
