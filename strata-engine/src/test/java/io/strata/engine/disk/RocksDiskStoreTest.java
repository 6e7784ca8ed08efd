package io.strata.engine.disk;

import io.strata.engine.store.DiskStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link RocksDiskStore} alone: its cursors and its settling at close. */
class RocksDiskStoreTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("k%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes {@code count} keys from {@code first} with random 1,000-byte values, as one batch at {@code version}. */
    private static void write(RocksDiskStore store, int first, int count, long version) throws Exception {
        Random random = new Random(first);
        try (DiskStore.Batch batch = store.newBatch()) {
            for (int i = first; i < first + count; i++) {
                byte[] value = new byte[1_000];
                random.nextBytes(value);
                batch.put(key(i), value);
            }
            store.write(batch, version);
        }
    }

    /**
     * Three flushes in a row leave three level-0 files, over RocksDB's trigger of two, and a
     * compaction that takes a while (18 MB of random values): settling waits for it.
     */
    @Test
    void settlingWaitsUntilNoCompactionIsLeftAndLevelZeroIsMergedDown() throws Exception {
        try (RocksDiskStore store = RocksDiskStore.open(dir, 8 << 20)) {
            for (int flush = 0; flush < 3; flush++) {
                write(store, flush * 6_000, 6_000, flush + 1);
                store.makeDurable();
            }
            assertThat(store.settle(60_000)).isTrue();
            assertThat(store.compacting()).isFalse();
            assertThat(store.levelZeroFiles()).isLessThan(2);
            try (DiskStore.Cursor c = store.cursor(key(0), key(18_000), false)) {
                int n = 0;
                while (c.hasNext()) {
                    c.next();
                    n++;
                }
                assertThat(n).isEqualTo(18_000);
            }
        }
    }

    @Test
    void settlingAStoreWithNothingToCompactReturnsAtOnce() throws Exception {
        try (RocksDiskStore store = RocksDiskStore.open(dir, 8 << 20)) {
            write(store, 0, 10, 1);
            store.makeDurable();
            long t0 = System.nanoTime();
            assertThat(store.settle(60_000)).isTrue();
            assertThat(System.nanoTime() - t0).isLessThan(5_000_000_000L);
        }
    }

    /** Forward cursors set only an upper bound and start at the seek; both directions stay inside the range. */
    @Test
    void cursorsStayInsideTheirRangeBothWays() throws Exception {
        try (RocksDiskStore store = RocksDiskStore.open(dir, 8 << 20)) {
            write(store, 0, 100, 1);
            assertThat(keys(store, key(10), key(20), false)).containsExactlyElementsOf(expected(10, 20, false));
            assertThat(keys(store, key(10), key(20), true)).containsExactlyElementsOf(expected(10, 20, true));
            assertThat(keys(store, key(99), key(200), true)).containsExactly("k000099");
            assertThat(keys(store, key(200), key(300), false)).isEmpty();
            assertThat(store.anyKeyIn(key(50), key(51))).isTrue();
            assertThat(store.anyKeyIn(key(100), key(200))).isFalse();
        }
    }

    private static List<String> keys(RocksDiskStore store, byte[] lo, byte[] hi, boolean reverse) {
        List<String> out = new ArrayList<>();
        try (DiskStore.Cursor c = store.cursor(lo, hi, reverse)) {
            while (c.hasNext()) {
                Map.Entry<byte[], byte[]> e = c.next();
                out.add(new String(e.getKey(), StandardCharsets.US_ASCII));
            }
            assertThat(c.hasNext()).isFalse();
        }
        return out;
    }

    private static List<String> expected(int from, int to, boolean reverse) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(new String(key(i), StandardCharsets.US_ASCII));
        }
        if (reverse) {
            java.util.Collections.reverse(out);
        }
        return out;
    }
}
