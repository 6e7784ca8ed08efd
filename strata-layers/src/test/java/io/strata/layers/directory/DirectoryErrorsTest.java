package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.directory.DirectoryLayer;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

import static io.strata.layers.directory.DirectoryTestSupport.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Errors for missing and existing paths, layers, manual prefixes, moves and versions; where
 * fdb-java has the same error, its exception has the same simple name as ours.
 */
class DirectoryErrorsTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Runs {@code action} on a fresh database with each layer; both must fail the same way. */
    private static Throwable bothFail(boolean manualPrefixes, Consumer<Layers> action) {
        Throwable ours;
        Throwable official;
        try (Database db = Strata.inMemory()) {
            ours = failure(() -> action.accept(new Layers(db, new StrataDirectoryLayer(manualPrefixes), null)));
        }
        try (Database db = Strata.inMemory()) {
            official = failure(() -> action.accept(new Layers(db, null, new DirectoryLayer(manualPrefixes))));
        }
        assertThat(ours.getClass().getSimpleName()).isEqualTo(official.getClass().getSimpleName());
        return ours;
    }

    /** One of the two layers, behind the few calls these tests make. */
    private record Layers(Database db, StrataDirectoryLayer ours, DirectoryLayer official) {
        void create(List<String> path, byte[] layer, byte[] prefix) {
            if (ours != null) {
                ours.create(db, path, layer, prefix).join();
            } else {
                official.create(db, path, layer, prefix).join();
            }
        }

        void create(List<String> path) {
            create(path, new byte[0], null);
        }

        void open(List<String> path, byte[] layer) {
            if (ours != null) {
                ours.open(db, path, layer).join();
            } else {
                official.open(db, path, layer).join();
            }
        }

        void createOrOpen(List<String> path, byte[] layer) {
            if (ours != null) {
                ours.createOrOpen(db, path, layer).join();
            } else {
                official.createOrOpen(db, path, layer).join();
            }
        }

        void remove(List<String> path) {
            if (ours != null) {
                ours.remove(db, path).join();
            } else {
                official.remove(db, path).join();
            }
        }

        void move(List<String> from, List<String> to) {
            if (ours != null) {
                ours.move(db, from, to).join();
            } else {
                official.move(db, from, to).join();
            }
        }

        void list(List<String> path) {
            if (ours != null) {
                ours.list(db, path).join();
            } else {
                official.list(db, path).join();
            }
        }
    }

    @Test
    void openMissing() {
        Throwable t = bothFail(false, l -> l.open(List.of("missing"), new byte[0]));
        assertThat(t).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(((NoSuchDirectoryException) t).getPath()).containsExactly("missing");
        assertThat(bothFail(false, l -> {
            l.create(List.of("a"));
            l.open(List.of("a", "b"), new byte[0]);
        })).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(bothFail(false, l -> l.list(List.of("missing")))).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(bothFail(false, l -> l.remove(List.of("missing")))).isInstanceOf(NoSuchDirectoryException.class);
    }

    @Test
    void createExisting() {
        assertThat(bothFail(false, l -> {
            l.create(List.of("a", "b"));
            l.create(List.of("a", "b"));
        })).isInstanceOf(DirectoryAlreadyExistsException.class);
        assertThat(bothFail(false, l -> {
            l.create(List.of("a", "b"));
            l.create(List.of("a"));
        })).isInstanceOf(DirectoryAlreadyExistsException.class);
    }

    @Test
    void layerMismatch() {
        Throwable t = bothFail(false, l -> {
            l.create(List.of("a"), bytes("one"), null);
            l.open(List.of("a"), bytes("two"));
        });
        assertThat(t).isInstanceOf(MismatchedLayerException.class);
        assertThat(((MismatchedLayerException) t).getStored()).isEqualTo(bytes("one"));
        assertThat(((MismatchedLayerException) t).getOpened()).isEqualTo(bytes("two"));
        assertThat(bothFail(false, l -> {
            l.create(List.of("a"), bytes("one"), null);
            l.createOrOpen(List.of("a"), bytes("two"));
        })).isInstanceOf(MismatchedLayerException.class);
        // An empty layer opens anything; a parent created implicitly has the empty layer.
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer ours = new StrataDirectoryLayer();
            ours.create(db, List.of("a", "b"), bytes("one")).join();
            assertThat(ours.open(db, List.of("a", "b")).join().getLayer()).isEqualTo(bytes("one"));
            assertThat(ours.open(db, List.of("a")).join().getLayer()).isEmpty();
            assertThat(failure(() -> ours.open(db, List.of("a"), bytes("one")).join()))
                    .isInstanceOf(MismatchedLayerException.class);
        }
    }

    @Test
    void manualPrefixes() {
        assertThat(bothFail(false, l -> l.create(List.of("a"), new byte[0], new byte[] {0x70})))
                .isInstanceOf(IllegalArgumentException.class);
        // Overlaps: equal, extending an existing one, contained in an existing one's prefix.
        for (byte[] second : List.of(new byte[] {0x70, 0x10}, new byte[] {0x70, 0x10, 0x00}, new byte[] {0x70, 0x10, 0x05, 0x06},
                new byte[] {0x70}, new byte[0], new byte[] {(byte) 0xFE, 0x01})) {
            assertThat(bothFail(true, l -> {
                l.create(List.of("a"), new byte[0], new byte[] {0x70, 0x10});
                l.create(List.of("b"), new byte[0], second);
            })).as("second prefix %s", java.util.Arrays.toString(second)).isInstanceOf(IllegalArgumentException.class);
        }
        // Neighbours that overlap nothing are fine.
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer ours = new StrataDirectoryLayer(true);
            ours.create(db, List.of("a"), new byte[0], new byte[] {0x70, 0x10}).join();
            ours.create(db, List.of("b"), new byte[0], new byte[] {0x70, 0x11}).join();
            ours.create(db, List.of("c"), new byte[0], new byte[] {0x70, 0x0F, (byte) 0xFF}).join();
            ours.create(db, List.of("d"), new byte[0], new byte[] {0x71}).join();
            assertThat(ours.open(db, List.of("c")).join().getKey()).containsExactly(0x70, 0x0F, 0xFF);
        }
    }

    @Test
    void rootAndMoves() {
        assertThat(bothFail(false, l -> l.open(List.of(), new byte[0]))).isInstanceOf(IllegalArgumentException.class);
        assertThat(bothFail(false, l -> l.createOrOpen(List.of(), new byte[0]))).isInstanceOf(IllegalArgumentException.class);
        assertThat(bothFail(false, l -> l.remove(List.of()))).isInstanceOf(DirectoryException.class);
        assertThat(bothFail(false, l -> {
            l.create(List.of("a"));
            l.move(List.of("a"), List.of("a", "b"));
        })).isInstanceOf(DirectoryMoveException.class);
        assertThat(bothFail(false, l -> l.move(List.of("missing"), List.of("b")))).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(bothFail(false, l -> {
            l.create(List.of("a"));
            l.create(List.of("b"));
            l.move(List.of("a"), List.of("b"));
        })).isInstanceOf(DirectoryAlreadyExistsException.class);
        Throwable t = bothFail(false, l -> {
            l.create(List.of("a"));
            l.move(List.of("a"), List.of("no", "parent"));
        });
        assertThat(t).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(((NoSuchDirectoryException) t).getPath()).containsExactly("no");
    }

    @Test
    void versions() {
        for (int[] version : new int[][] {{2, 0, 0}, {1, 1, 0}}) {
            try (Database db = Strata.inMemory()) {
                StrataDirectoryLayer ours = new StrataDirectoryLayer();
                ours.create(db, List.of("a")).join();
                byte[] key = StrataDirectoryLayer.DEFAULT_NODE_SUBSPACE.get(StrataDirectoryLayer.DEFAULT_NODE_SUBSPACE.getKey())
                        .pack(bytes("version"));
                byte[] stored = db.run(tr -> tr.get(key).join());
                assertThat(stored).containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
                ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
                for (int v : version) {
                    b.putInt(v);
                }
                db.run(tr -> {
                    tr.set(key, b.array());
                    return null;
                });
                // A newer minor version is read-only; a newer major version cannot even be read.
                assertThat(failure(() -> ours.create(db, List.of("b")).join())).isInstanceOf(DirectoryVersionException.class);
                assertThat(failure(() -> ours.remove(db, List.of("a")).join())).isInstanceOf(DirectoryVersionException.class);
                if (version[0] > 1) {
                    assertThat(failure(() -> ours.open(db, List.of("a")).join())).isInstanceOf(DirectoryVersionException.class);
                    assertThat(failure(() -> ours.list(db, List.of()).join())).isInstanceOf(DirectoryVersionException.class);
                } else {
                    assertThat(ours.open(db, List.of("a")).join().getPath()).containsExactly("a");
                    assertThat(ours.list(db, List.of()).join()).containsExactly("a");
                }
            }
        }
    }

    @Test
    void partitions() {
        byte[] partition = StrataDirectoryLayer.PARTITION_LAYER;
        Throwable t = bothFail(false, l -> {
            l.create(List.of("p"), partition, null);
            l.open(List.of("p", "missing", "deeper"), new byte[0]);
        });
        assertThat(t).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(((NoSuchDirectoryException) t).getPath()).containsExactly("p", "missing", "deeper");
        assertThat(bothFail(true, l -> {
            l.create(List.of("p"), partition, null);
            l.create(List.of("p", "manual"), new byte[0], new byte[] {0x70});
        })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partition");
        assertThat(bothFail(false, l -> {
            l.create(List.of("p"), partition, null);
            l.create(List.of("p", "a"));
            l.move(List.of("p", "a"), List.of("b"));
        })).isInstanceOf(DirectoryMoveException.class);
        assertThat(bothFail(false, l -> {
            l.create(List.of("p"), partition, null);
            l.create(List.of("q"), partition, null);
            l.create(List.of("p", "a"));
            l.move(List.of("p", "a"), List.of("q", "a"));
        })).isInstanceOf(DirectoryMoveException.class);
        assertThat(bothFail(false, l -> {
            l.create(List.of("p"), partition, null);
            l.create(List.of("p", "a"), new byte[0], null);
            l.create(List.of("p", "a"), new byte[0], null);
        })).isInstanceOf(DirectoryAlreadyExistsException.class);
        assertThat(bothFail(false, l -> {
            l.create(List.of("p"), partition, null);
            l.create(List.of("p", "a"), bytes("one"), null);
            l.open(List.of("p", "a"), bytes("two"));
        })).isInstanceOf(MismatchedLayerException.class);
    }

    @Test
    void partitionsInterop() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer ours = new StrataDirectoryLayer();
            DirectoryLayer official = new DirectoryLayer();
            StrataDirectory p = ours.create(db, List.of("p"), StrataDirectoryLayer.PARTITION_LAYER).join();
            assertThat(p.isPartition()).isTrue();
            assertThat(official.open(db, List.of("p")).join().getLayer()).isEqualTo(StrataDirectoryLayer.PARTITION_LAYER);
            byte[] inner = official.create(db, List.of("p", "x", "y"), bytes("L")).join().getKey();
            StrataDirectory opened = ours.open(db, List.of("p", "x", "y"), bytes("L")).join();
            assertThat(opened.getKey()).isEqualTo(inner).startsWith(p.prefix());
            assertThat(opened.getPath()).containsExactly("p", "x", "y");
            StrataDirectory ourInner = ours.create(db, List.of("p", "z")).join();
            assertThat(official.open(db, List.of("p", "z")).join().getKey()).isEqualTo(ourInner.getKey());
            assertThat(ours.list(db, List.of("p")).join()).isEqualTo(official.list(db, List.of("p")).join()).containsExactly("x", "z");
            assertThat(ours.exists(db, List.of("p", "x", "y")).join()).isTrue();
            assertThat(ours.exists(db, List.of("p", "nope")).join()).isFalse();
            ours.move(db, List.of("p", "z"), List.of("p", "x", "z")).join();
            assertThat(official.list(db, List.of("p", "x")).join()).containsExactly("y", "z");
            assertThat(ours.removeIfExists(db, List.of("p", "x")).join()).isTrue();
            assertThat(official.exists(db, List.of("p", "x")).join()).isFalse();
            ours.remove(db, List.of("p")).join();
            assertThat(DirectoryTestSupport.dump(db).stream().filter(kv -> ByteArrayUtil.startsWith(kv.getKey(), p.prefix()))).isEmpty();
        }
    }
}
