package io.strata.engine.store;

import io.strata.engine.disk.RocksDiskStore;
import io.strata.engine.util.ByteKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Split points over a disk store from its statistics: most of the range on disk, the rest in
 * the window, every point a present key, the chunks about the size asked — checked against
 * the exact bytes of each chunk.
 */
class DiskSplitPointsTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("k%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void largeRangesAreCutFromTheDiskStoresStatisticsAtPresentKeys() throws Exception {
        try (VersionedStore store = new VersionedStore(RocksDiskStore.open(dir, 8 << 20), "test-catch-up")) {
            long version = 0;
            byte[] value = new byte[1_000];
            new java.util.Random(5).nextBytes(value); // as incompressible as most values
            for (int batch = 0; batch < 200; batch++) { // 20,000 keys, about 20 MB, then on disk
                version++;
                for (int i = batch * 100; i < batch * 100 + 100; i++) {
                    store.set(key(i), value, version);
                }
            }
            DiskTestData.moveWindowToDisk(store, version);
            version++;
            for (int i = 20_000; i < 25_000; i++) { // about 5 MB more, only in the window
                store.set(key(i), value, version);
            }
            for (int i = 0; i < 20_000; i += 2) { // half the disk's keys cleared in the window
                store.clear(key(i), version);
            }

            store.splitWalkLimit(0);
            long chunk = 2L << 20;
            List<byte[]> points = store.splitPoints(b("k"), b("l"), chunk, version);

            assertThat(points.get(0)).isEqualTo(b("k"));
            assertThat(points.get(points.size() - 1)).isEqualTo(b("l"));
            for (int i = 1; i < points.size(); i++) {
                assertThat(ByteKeys.compare(points.get(i - 1), points.get(i))).as("ascending").isLessThan(0);
            }
            for (byte[] p : points.subList(1, points.size() - 1)) {
                assertThat(store.get(p, version)).as("a present key").isNotNull();
            }
            // The estimate counts the cleared half until the catch-up writes the clears, so the
            // chunks run small; about 15 MB present makes 7 exact chunks, and the estimate more.
            List<Long> sizes = chunkBytes(store, points, version);
            assertThat(points.size() - 1).isBetween(6, 20);
            for (long size : sizes.subList(0, sizes.size() - 1)) {
                assertThat(size).isBetween(chunk / 4, chunk * 2);
            }
            assertThat(sizes.stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(chunkBytes(store, List.of(b("k"), b("l")), version).get(0));
        }
    }

    /** The exact bytes between consecutive points. */
    private static List<Long> chunkBytes(VersionedStore store, List<byte[]> points, long version) {
        List<Long> sizes = new ArrayList<>();
        for (int i = 0; i + 1 < points.size(); i++) {
            long bytes = 0;
            try (StoreRange r = store.range(points.get(i), points.get(i + 1), version, false)) {
                while (r.hasNext()) {
                    Map.Entry<byte[], byte[]> e = r.next();
                    bytes += e.getKey().length + e.getValue().length;
                }
            }
            sizes.add(bytes);
        }
        return sizes;
    }

    @Test
    void midpointsLieStrictlyBetweenAndEndWhenNoKeyFits() {
        assertThat(DiskSplitPoints.midpoint(b("a"), b("c"))).isEqualTo(b("b"));
        byte[] m = DiskSplitPoints.midpoint(b("a"), b("b"));
        assertThat(ByteKeys.compare(m, b("a"))).isGreaterThan(0);
        assertThat(ByteKeys.compare(m, b("b"))).isLessThan(0);
        assertThat(DiskSplitPoints.midpoint(b("a"), new byte[] {'a', 0})).isNull();
        byte[] fromEmpty = DiskSplitPoints.midpoint(new byte[0], new byte[] {(byte) 0xff});
        assertThat(ByteKeys.compare(fromEmpty, new byte[0])).isGreaterThan(0);
        assertThat(ByteKeys.compare(fromEmpty, new byte[] {(byte) 0xff})).isLessThan(0);
    }
}
