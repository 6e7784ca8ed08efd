package io.strata.bench.stores;

import io.strata.engine.store.DiskStore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The stores {@code strata bench stores} measures against RocksDB answer like a sorted map:
 * random batches of puts, deletes and range deletes, then gets and cursors both ways over
 * random bounds; a cursor keeps the state it opened on; the applied version and the data
 * survive a close and reopen. (The engine's own stores are held to {@code DiskStoreContract};
 * these adapters exist only for the benchmark, so they get this shorter check.)
 */
class BakeoffStoresTest {
    @TempDir
    Path dir;

    private DiskStore open(String kind) {
        return kind.equals("mvstore") ? MvStoreDiskStore.open(dir, 8 << 20) : LmdbDiskStore.open(dir);
    }

    private static byte[] key(Random r) {
        byte[] k = new byte[1 + r.nextInt(3)];
        for (int i = 0; i < k.length; i++) {
            k[i] = new byte[] {0, 'a', (byte) 0xff}[r.nextInt(3)];
        }
        return k;
    }

    private static List<byte[]> keysOf(DiskStore.Cursor c) {
        List<byte[]> out = new ArrayList<>();
        try (c) {
            c.forEachRemaining(e -> out.add(e.getKey()));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"mvstore", "lmdb"})
    void answersLikeASortedMapAndSurvivesAReopen(String kind) throws Exception {
        Random r = new Random(kind.hashCode());
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        DiskStore store = open(kind);
        DiskStore.Cursor before = null;
        List<byte[]> beforeKeys = null;
        for (int version = 1; version <= 200; version++) {
            DiskStore.Batch batch = store.newBatch();
            for (int op = r.nextInt(8); op >= 0; op--) {
                byte[] k = key(r);
                int what = r.nextInt(10);
                if (what < 6) {
                    byte[] v = new byte[r.nextInt(300)];
                    r.nextBytes(v);
                    batch.put(k, v);
                    model.put(k, v);
                } else if (what < 9) {
                    batch.delete(k);
                    model.remove(k);
                } else {
                    byte[] e = key(r);
                    batch.deleteRange(k, e);
                    if (Arrays.compareUnsigned(k, e) < 0) {
                        model.subMap(k, true, e, false).clear();
                    }
                }
            }
            store.write(batch, version);
            if (version == 100) {
                before = store.cursor(new byte[] {0}, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}, false);
                beforeKeys = new ArrayList<>(model.keySet());
            }
            byte[] lo = key(r);
            byte[] hi = key(r);
            assertThat(keysOf(store.cursor(lo, hi, false))).as("forward %s", version)
                    .containsExactlyElementsOf(Arrays.compareUnsigned(lo, hi) < 0 ? model.subMap(lo, true, hi, false).keySet() : List.of());
            assertThat(keysOf(store.cursor(lo, hi, true))).as("reverse %s", version)
                    .containsExactlyElementsOf(Arrays.compareUnsigned(lo, hi) < 0 ? model.subMap(lo, true, hi, false).descendingMap().keySet() : List.of());
            byte[] k = key(r);
            assertThat(store.get(k)).isEqualTo(model.get(k));
            assertThat(store.appliedVersion()).isEqualTo(version);
        }
        assertThat(keysOf(before)).as("a cursor reads the state it opened on").containsExactlyElementsOf(beforeKeys);
        store.makeDurable();
        store.close();
        DiskStore again = open(kind);
        try {
            assertThat(again.appliedVersion()).isEqualTo(200);
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                assertThat(again.get(e.getKey())).isEqualTo(e.getValue());
            }
            assertThat(keysOf(again.cursor(new byte[] {0}, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}, true)))
                    .containsExactlyElementsOf(model.descendingMap().keySet());
        } finally {
            again.close();
        }
    }

    @org.junit.jupiter.api.Test
    void lmdbRefusesKeysFoundationDbAllowsButItCannotHold() {
        try (DiskStore store = LmdbDiskStore.open(dir)) {
            DiskStore.Batch batch = store.newBatch();
            batch.put(new byte[10_000], new byte[] {1});
            assertThatThrownBy(() -> store.write(batch, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("511");
            DiskStore.Batch empty = store.newBatch();
            empty.put(new byte[0], new byte[] {1});
            assertThatThrownBy(() -> store.write(empty, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("empty key");
            assertThat(store.appliedVersion()).as("a refused batch writes nothing").isZero();
        }
    }
}
