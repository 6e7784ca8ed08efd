package io.strata.engine.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.directory.DirectoryAlreadyExistsException;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectoryMoveException;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.directory.MismatchedLayerException;
import com.apple.foundationdb.directory.NoSuchDirectoryException;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * fdb-java's own {@link DirectoryLayer}, unchanged, on the engine: every operation of the
 * {@code Directory} interface, its errors, partitions, manual prefixes, and the raw key
 * layout it leaves, which must be FoundationDB's byte for byte (node subspace {@code \xfe},
 * root node {@code \xfe\x01\xfe\x00}, version key, allocator keys).
 *
 * <p>The directory layer is a demanding client: it reads and writes in one transaction from
 * several executor threads, relies on read-your-writes (also on snapshot reads of its own
 * atomic adds), on {@code next_write_no_write_conflict_range}, and on a range iterator
 * opened before a clear not seeing that clear. Concurrency and faults are in
 * {@link DirectoryLayerConcurrencyTest}.
 */
class OfficialDirectoryLayerTest {
    private static final byte[] NODE_PREFIX = {(byte) 0xfe};
    /** The root node: {@code nodeSubspace.get(nodeSubspace.getKey())} = {@code \xfe} + pack(bytes {@code \xfe}). */
    private static final byte[] ROOT_NODE = {(byte) 0xfe, 0x01, (byte) 0xfe, 0x00};

    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Runs {@code op}, expects it to fail, and returns the root cause (futures wrap it once or twice). */
    private static Throwable failureOf(Supplier<?> op) {
        try {
            op.get();
        } catch (Throwable t) {
            Throwable c = t;
            while (c.getCause() != null && c.getCause() != c) {
                c = c.getCause();
            }
            return c;
        }
        throw new AssertionError("expected a failure");
    }

    private <T> T run(java.util.function.Function<com.apple.foundationdb.Transaction, CompletableFuture<T>> op) {
        return db.run(tr -> op.apply(tr).join());
    }

    private List<KeyValue> rawRange(byte[] begin, byte[] end) {
        return db.read(tr -> tr.getRange(begin, end).asList().join());
    }

    private List<KeyValue> everything() {
        return rawRange(new byte[0], new byte[] {(byte) 0xff});
    }

    // ---------------------------------------------------------------- create, open, createOrOpen

    @Test
    void createThenOpenGivesTheSamePrefixAndPath() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace created = run(tr -> dl.create(tr, List.of("app")));
        DirectorySubspace opened = run(tr -> dl.open(tr, List.of("app")));
        DirectorySubspace again = run(tr -> dl.createOrOpen(tr, List.of("app")));

        assertThat(created.getPath()).containsExactly("app");
        assertThat(created.getLayer()).isEmpty();
        assertThat(opened.getKey()).isEqualTo(created.getKey());
        assertThat(again.getKey()).isEqualTo(created.getKey());
        assertThat(opened).isEqualTo(created);
    }

    @Test
    void databaseIsATransactionContextForEveryOperation() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace created = dl.create(db, List.of("ctx", "a")).join();
        assertThat(dl.open(db, List.of("ctx", "a")).join().getKey()).isEqualTo(created.getKey());
        assertThat(dl.exists(db, List.of("ctx")).join()).isTrue();
        assertThat(dl.list(db, List.of("ctx")).join()).containsExactly("a");
        assertThat(dl.move(db, List.of("ctx", "a"), List.of("ctx", "b")).join().getKey()).isEqualTo(created.getKey());
        assertThat(dl.removeIfExists(db, List.of("ctx")).join()).isTrue();
        assertThat(dl.exists(db, List.of("ctx")).join()).isFalse();
    }

    @Test
    void createOfAnExistingDirectoryFailsWithDirectoryAlreadyExists() {
        DirectoryLayer dl = new DirectoryLayer();
        run(tr -> dl.create(tr, List.of("app", "users")));
        Throwable e = failureOf(() -> run(tr -> dl.create(tr, List.of("app", "users"))));
        assertThat(e).isInstanceOf(DirectoryAlreadyExistsException.class);
        assertThat(((DirectoryAlreadyExistsException) e).path).containsExactly("app", "users");
        // Its parent was created implicitly and exists as well.
        assertThat(failureOf(() -> run(tr -> dl.create(tr, List.of("app"))))).isInstanceOf(DirectoryAlreadyExistsException.class);
    }

    @Test
    void openOfAMissingDirectoryFailsWithNoSuchDirectory() {
        DirectoryLayer dl = new DirectoryLayer();
        Throwable e = failureOf(() -> dl.open(db, List.of("missing")).join());
        assertThat(e).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(((NoSuchDirectoryException) e).path).containsExactly("missing");
        // Opening creates nothing.
        assertThat(everything()).isEmpty();
    }

    @Test
    void theRootCannotBeOpenedMovedOrRemoved() {
        DirectoryLayer dl = new DirectoryLayer();
        assertThat(failureOf(() -> dl.createOrOpen(db, List.of()).join())).isInstanceOf(IllegalArgumentException.class);
        assertThat(failureOf(() -> dl.moveTo(db, List.of("x")).join())).isInstanceOf(DirectoryMoveException.class);
        assertThat(failureOf(() -> dl.remove(db, List.of()).join())).hasMessageContaining("root directory cannot be removed");
    }

    @Test
    void defaultDirectoryLayerSeesWhatANewDirectoryLayerCreated() {
        DirectoryLayer mine = new DirectoryLayer();
        DirectorySubspace created = mine.createOrOpen(db, List.of("shared", "dir")).join();
        DirectoryLayer dflt = DirectoryLayer.getDefault();
        assertThat(dflt).isEqualTo(mine);
        assertThat(dflt.open(db, List.of("shared", "dir")).join().getKey()).isEqualTo(created.getKey());
        DirectorySubspace other = dflt.createOrOpen(db, List.of("shared", "other")).join();
        assertThat(mine.list(db, List.of("shared")).join()).containsExactly("dir", "other");
        assertThat(other.getKey()).isNotEqualTo(created.getKey());
    }

    @Test
    void subdirectoriesOfADirectorySubspaceAreRelativeToIt() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace app = dl.createOrOpen(db, List.of("app")).join();
        DirectorySubspace users = app.createOrOpen(db, List.of("users")).join();
        assertThat(users.getPath()).containsExactly("app", "users");
        assertThat(dl.open(db, List.of("app", "users")).join().getKey()).isEqualTo(users.getKey());
        assertThat(app.exists(db, List.of("users")).join()).isTrue();
        assertThat(app.list(db).join()).containsExactly("users");
        assertThat(users.exists(db).join()).isTrue();
    }

    // ---------------------------------------------------------------- exists and list

    @Test
    void existsAndListFollowCreatesAndRemoves() {
        DirectoryLayer dl = new DirectoryLayer();
        assertThat(dl.exists(db, List.of("a")).join()).isFalse();
        assertThat(dl.list(db).join()).isEmpty();
        for (String name : List.of("c", "a", "b")) {
            dl.create(db, List.of("a", name)).join();
        }
        assertThat(dl.exists(db, List.of("a")).join()).isTrue();
        assertThat(dl.exists(db, List.of("a", "b")).join()).isTrue();
        assertThat(dl.exists(db, List.of("a", "z")).join()).isFalse();
        assertThat(dl.exists(db, List.of("a", "b", "deeper")).join()).isFalse();
        assertThat(dl.list(db).join()).containsExactly("a");
        // Children come back in key order of their names.
        assertThat(dl.list(db, List.of("a")).join()).containsExactly("a", "b", "c");
        assertThat(dl.list(db, List.of("a", "b")).join()).isEmpty();
        assertThat(failureOf(() -> dl.list(db, List.of("nope")).join())).isInstanceOf(NoSuchDirectoryException.class);

        dl.remove(db, List.of("a", "b")).join();
        assertThat(dl.list(db, List.of("a")).join()).containsExactly("a", "c");
        assertThat(dl.exists(db, List.of("a", "b")).join()).isFalse();
    }

    /** list() collects a range iterator: more children than one read chunk (256 rows) must all come back. */
    @Test
    void listOfMoreChildrenThanOneReadChunk() {
        DirectoryLayer dl = new DirectoryLayer();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            expected.add(String.format("c%04d", i));
        }
        db.run(tr -> {
            for (String name : expected) {
                dl.create(tr, List.of("big", name)).join();
            }
            return null;
        });
        assertThat(dl.list(db, List.of("big")).join()).containsExactlyElementsOf(expected);
        List<String> inOneTransaction = db.read(tr -> dl.list(tr, List.of("big")).join());
        assertThat(inOneTransaction).hasSize(600);
    }

    @Test
    void unicodeNamesRoundTrip() {
        DirectoryLayer dl = new DirectoryLayer();
        List<String> path = List.of("données", "日本", "\u0000nul");
        DirectorySubspace d = dl.createOrOpen(db, path).join();
        assertThat(dl.open(db, path).join().getKey()).isEqualTo(d.getKey());
        assertThat(dl.list(db, path.subList(0, 2)).join()).containsExactly("\u0000nul");
    }

    // ---------------------------------------------------------------- move

    @Test
    void moveKeepsThePrefixAndTheContents() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace src = dl.createOrOpen(db, List.of("a", "b")).join();
        DirectorySubspace child = dl.createOrOpen(db, List.of("a", "b", "child")).join();
        db.run(tr -> {
            tr.set(src.pack(Tuple.from("k")), b("v"));
            return null;
        });
        dl.createOrOpen(db, List.of("c")).join();

        DirectorySubspace moved = dl.move(db, List.of("a", "b"), List.of("c", "d")).join();

        assertThat(moved.getPath()).containsExactly("c", "d");
        assertThat(moved.getKey()).isEqualTo(src.getKey());
        assertThat(dl.exists(db, List.of("a", "b")).join()).isFalse();
        assertThat(dl.list(db, List.of("a")).join()).isEmpty();
        assertThat(dl.open(db, List.of("c", "d", "child")).join().getKey()).isEqualTo(child.getKey());
        byte[] value = db.read(tr -> tr.get(moved.pack(Tuple.from("k"))).join());
        assertThat(value).isEqualTo(b("v"));
    }

    @Test
    void moveToMovesADirectorySubspace() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace d = dl.createOrOpen(db, List.of("from")).join();
        DirectorySubspace moved = d.moveTo(db, List.of("to")).join();
        assertThat(moved.getPath()).containsExactly("to");
        assertThat(moved.getKey()).isEqualTo(d.getKey());
        assertThat(dl.list(db).join()).containsExactly("to");
    }

    @Test
    void invalidMovesFailWithTheDirectoryLayersExceptions() {
        DirectoryLayer dl = new DirectoryLayer();
        dl.createOrOpen(db, List.of("a", "b")).join();
        dl.createOrOpen(db, List.of("x")).join();

        assertThat(failureOf(() -> dl.move(db, List.of("a"), List.of("a", "b", "inside")).join()))
                .isInstanceOf(DirectoryMoveException.class);
        assertThat(failureOf(() -> dl.move(db, List.of("a", "b"), List.of("x")).join()))
                .isInstanceOf(DirectoryAlreadyExistsException.class);
        assertThat(failureOf(() -> dl.move(db, List.of("nope"), List.of("y")).join()))
                .isInstanceOf(NoSuchDirectoryException.class);
        assertThat(failureOf(() -> dl.move(db, List.of("x"), List.of("no", "parent")).join()))
                .isInstanceOf(NoSuchDirectoryException.class);
        // Nothing moved.
        assertThat(dl.list(db).join()).containsExactly("a", "x");
        assertThat(dl.list(db, List.of("a")).join()).containsExactly("b");
    }

    // ---------------------------------------------------------------- remove

    @Test
    void removeDeletesTheSubtreeItsContentsAndItsMetadata() {
        DirectoryLayer dl = new DirectoryLayer();
        dl.createOrOpen(db, List.of("keep")).join();
        List<byte[]> snapshotBefore = new ArrayList<>();
        for (KeyValue kv : everything()) {
            snapshotBefore.add(kv.getKey());
        }
        DirectorySubspace a = dl.createOrOpen(db, List.of("a")).join();
        DirectorySubspace ab = dl.createOrOpen(db, List.of("a", "b")).join();
        DirectorySubspace abc = dl.createOrOpen(db, List.of("a", "b", "c")).join();
        DirectorySubspace ad = dl.createOrOpen(db, List.of("a", "d")).join();
        db.run(tr -> {
            for (DirectorySubspace d : List.of(a, ab, abc, ad)) {
                tr.set(d.pack(Tuple.from("row", 1)), b("x"));
                tr.set(d.pack(Tuple.from("row", 2)), b("y"));
            }
            return null;
        });

        dl.remove(db, List.of("a")).join();

        assertThat(dl.exists(db, List.of("a")).join()).isFalse();
        assertThat(dl.list(db).join()).containsExactly("keep");
        for (DirectorySubspace d : List.of(a, ab, abc, ad)) {
            assertThat(rawRange(d.range().begin, d.range().end)).as("contents of %s", d.getPath()).isEmpty();
            // The node of every removed directory, subdirectories included, is gone.
            Subspace node = DirectoryLayer.DEFAULT_NODE_SUBSPACE.get(d.getKey());
            assertThat(rawRange(node.range().begin, node.range().end)).as("node of %s", d.getPath()).isEmpty();
        }
        // What is left is what was there before, except the allocator's bookkeeping.
        Subspace hca = new Subspace(ROOT_NODE).get(b("hca"));
        List<byte[]> left = new ArrayList<>();
        for (KeyValue kv : everything()) {
            if (!hca.contains(kv.getKey())) {
                left.add(kv.getKey());
            }
        }
        List<byte[]> expected = new ArrayList<>();
        for (byte[] k : snapshotBefore) {
            if (!hca.contains(k)) {
                expected.add(k);
            }
        }
        assertThat(left).containsExactlyElementsOf(expected);
    }

    @Test
    void removeOfAMissingDirectoryFailsAndRemoveIfExistsSaysFalse() {
        DirectoryLayer dl = new DirectoryLayer();
        assertThat(failureOf(() -> dl.remove(db, List.of("nope")).join())).isInstanceOf(NoSuchDirectoryException.class);
        assertThat(dl.removeIfExists(db, List.of("nope")).join()).isFalse();
        DirectorySubspace d = dl.createOrOpen(db, List.of("yes")).join();
        assertThat(dl.removeIfExists(db, List.of("yes")).join()).isTrue();
        assertThat(dl.removeIfExists(db, List.of("yes")).join()).isFalse();
        assertThat(d.exists(db).join()).isFalse();
    }

    @Test
    void removeInsideOneTransactionIsVisibleToItsLaterReads() {
        DirectoryLayer dl = new DirectoryLayer();
        dl.createOrOpen(db, List.of("t", "u")).join();
        boolean existsAfter = db.run(tr -> {
            dl.remove(tr, List.of("t")).join();
            return dl.exists(tr, List.of("t", "u")).join();
        });
        assertThat(existsAfter).isFalse();
        assertThat(dl.exists(db, List.of("t")).join()).isFalse();
    }

    // ---------------------------------------------------------------- layers

    @Test
    void layerIsRecordedAndCheckedOnOpen() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace table = dl.create(db, List.of("t"), b("table")).join();
        assertThat(table.getLayer()).isEqualTo(b("table"));

        assertThat(dl.open(db, List.of("t"), b("table")).join().getKey()).isEqualTo(table.getKey());
        assertThat(dl.createOrOpen(db, List.of("t"), b("table")).join().getKey()).isEqualTo(table.getKey());
        // An empty layer means "do not check".
        assertThat(dl.open(db, List.of("t")).join().getLayer()).isEqualTo(b("table"));

        Throwable e = failureOf(() -> dl.open(db, List.of("t"), b("index")).join());
        assertThat(e).isInstanceOf(MismatchedLayerException.class);
        assertThat(((MismatchedLayerException) e).stored).isEqualTo(b("table"));
        assertThat(((MismatchedLayerException) e).opened).isEqualTo(b("index"));
        assertThat(failureOf(() -> dl.createOrOpen(db, List.of("t"), b("index")).join()))
                .isInstanceOf(MismatchedLayerException.class);
    }

    @Test
    void layerIsStoredUnderTheNodesLayerKey() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace d = dl.create(db, List.of("t"), b("my-layer")).join();
        byte[] layerKey = DirectoryLayer.DEFAULT_NODE_SUBSPACE.get(d.getKey()).pack(Tuple.from((Object) b("layer")));
        byte[] stored = db.read(tr -> tr.get(layerKey).join());
        assertThat(stored).isEqualTo(b("my-layer"));
    }

    // ---------------------------------------------------------------- partitions

    @Test
    void aPartitionKeepsItsSubdirectoriesUnderItsPrefix() {
        DirectoryLayer dl = new DirectoryLayer();
        DirectorySubspace p = dl.createOrOpen(db, List.of("p"), DirectoryLayer.PARTITION_LAYER).join();
        assertThat(p.getClass().getSimpleName()).isEqualTo("DirectoryPartition");
        assertThat(p.getLayer()).isEqualTo(b("partition"));
        assertThatThrownBy(p::getKey).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> p.pack(Tuple.from(1))).isInstanceOf(UnsupportedOperationException.class);

        // The partition's prefix is the value of its entry in the root node.
        byte[] entry = new Subspace(ROOT_NODE).get(0).get("p").getKey();
        byte[] prefix = db.read(tr -> tr.get(entry).join());
        assertThat(prefix).isNotNull();

        DirectorySubspace x = p.createOrOpen(db, List.of("x")).join();
        DirectorySubspace xy = dl.createOrOpen(db, List.of("p", "x", "y")).join();
        assertThat(x.getPath()).containsExactly("p", "x");
        assertThat(xy.getPath()).containsExactly("p", "x", "y");
        assertThat(ByteArrayUtil.startsWith(x.getKey(), prefix)).isTrue();
        assertThat(ByteArrayUtil.startsWith(xy.getKey(), prefix)).isTrue();
        assertThat(dl.list(db, List.of("p")).join()).containsExactly("x");
        assertThat(p.list(db).join()).containsExactly("x");
        assertThat(dl.open(db, List.of("p", "x", "y")).join().getKey()).isEqualTo(xy.getKey());

        // The partition's own metadata also lives under its prefix: node subspace prefix + \xfe.
        byte[] partitionNodes = ByteArrayUtil.join(prefix, NODE_PREFIX);
        List<KeyValue> metadata = rawRange(partitionNodes, ByteArrayUtil.strinc(partitionNodes));
        assertThat(metadata).isNotEmpty();
        byte[] partitionRoot = new Subspace(partitionNodes).get(partitionNodes).getKey();
        assertThat(metadata).anySatisfy(kv -> assertThat(kv.getKey()).isEqualTo(
                new Subspace(partitionRoot).pack(Tuple.from((Object) b("version")))));
        // Outside the partition, the root node knows only "p".
        assertThat(dl.list(db).join()).containsExactly("p");

        // Data written through the nested directory is inside the partition's prefix.
        db.run(tr -> {
            tr.set(xy.pack(Tuple.from("row")), b("v"));
            return null;
        });
        assertThat(rawRange(prefix, ByteArrayUtil.strinc(prefix)))
                .anySatisfy(kv -> assertThat(kv.getKey()).isEqualTo(xy.pack(Tuple.from("row"))));
    }

    @Test
    void movesWithinAPartitionWorkAndAcrossPartitionsFail() {
        DirectoryLayer dl = new DirectoryLayer();
        dl.createOrOpen(db, List.of("p1"), DirectoryLayer.PARTITION_LAYER).join();
        dl.createOrOpen(db, List.of("p2"), DirectoryLayer.PARTITION_LAYER).join();
        DirectorySubspace a = dl.createOrOpen(db, List.of("p1", "a")).join();
        dl.createOrOpen(db, List.of("plain")).join();

        DirectorySubspace moved = dl.move(db, List.of("p1", "a"), List.of("p1", "b")).join();
        assertThat(moved.getKey()).isEqualTo(a.getKey());
        assertThat(dl.list(db, List.of("p1")).join()).containsExactly("b");

        assertThat(failureOf(() -> dl.move(db, List.of("p1", "b"), List.of("p2", "b")).join()))
                .isInstanceOf(DirectoryMoveException.class);
        assertThat(failureOf(() -> dl.move(db, List.of("p1", "b"), List.of("plain", "b")).join()))
                .isInstanceOf(DirectoryMoveException.class);
        assertThat(failureOf(() -> dl.move(db, List.of("plain"), List.of("p2", "plain")).join()))
                .isInstanceOf(DirectoryMoveException.class);
    }

    @Test
    void removeInsideAPartitionAndOfAPartition() {
        DirectoryLayer dl = new DirectoryLayer();
        dl.createOrOpen(db, List.of("p"), DirectoryLayer.PARTITION_LAYER).join();
        DirectorySubspace a = dl.createOrOpen(db, List.of("p", "a")).join();
        dl.createOrOpen(db, List.of("p", "b")).join();
        db.run(tr -> {
            tr.set(a.pack(Tuple.from(1)), b("v"));
            return null;
        });
        byte[] prefix = db.read(tr -> tr.get(new Subspace(ROOT_NODE).get(0).get("p").getKey()).join());

        dl.remove(db, List.of("p", "a")).join();
        assertThat(dl.list(db, List.of("p")).join()).containsExactly("b");
        assertThat(rawRange(a.range().begin, a.range().end)).isEmpty();

        dl.remove(db, List.of("p")).join();
        assertThat(dl.exists(db, List.of("p")).join()).isFalse();
        assertThat(rawRange(prefix, ByteArrayUtil.strinc(prefix))).isEmpty();
    }

    @Test
    void manualPrefixesAreRefusedInsideAPartition() {
        DirectoryLayer dl = new DirectoryLayer(true);
        DirectorySubspace p = dl.createOrOpen(db, List.of("p"), DirectoryLayer.PARTITION_LAYER).join();
        assertThat(failureOf(() -> p.create(db, List.of("m"), new byte[0], b("mp")).join()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition");
    }

    // ---------------------------------------------------------------- manual prefixes

    @Test
    void manualPrefixesAreUsedVerbatimAndCheckedForOverlap() {
        Subspace nodes = new Subspace(b("nodes/"));
        Subspace content = new Subspace(b("content/"));
        DirectoryLayer dl = new DirectoryLayer(nodes, content, true);

        DirectorySubspace m = dl.create(db, List.of("m"), new byte[0], b("manual")).join();
        assertThat(m.getKey()).isEqualTo(b("manual"));
        assertThat(dl.open(db, List.of("m")).join().getKey()).isEqualTo(b("manual"));

        // A prefix equal to, extending, or contained in one in use is refused.
        for (String bad : List.of("manual", "manual2", "man")) {
            assertThat(failureOf(() -> dl.create(db, List.of("other-" + bad), new byte[0], b(bad)).join()))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Prefix already in use");
        }
        // The node subspace itself is in use too.
        assertThat(failureOf(() -> dl.create(db, List.of("in-nodes"), new byte[0], b("nodes/x")).join()))
                .isInstanceOf(IllegalArgumentException.class);
        // An empty prefix would contain everything.
        assertThat(failureOf(() -> dl.create(db, List.of("empty"), new byte[0], new byte[0]).join()))
                .isInstanceOf(IllegalArgumentException.class);
        // A disjoint prefix is fine, and automatic prefixes go under the content subspace.
        assertThat(dl.create(db, List.of("n"), new byte[0], b("other")).join().getKey()).isEqualTo(b("other"));
        DirectorySubspace auto = dl.create(db, List.of("auto")).join();
        assertThat(ByteArrayUtil.startsWith(auto.getKey(), b("content/"))).isTrue();
        // Nothing was written outside the node subspace.
        for (KeyValue kv : everything()) {
            assertThat(ByteArrayUtil.startsWith(kv.getKey(), b("nodes/"))).as(ByteArrayUtil.printable(kv.getKey())).isTrue();
        }
    }

    @Test
    void manualPrefixesAreRefusedUnlessEnabled() {
        DirectoryLayer dl = new DirectoryLayer();
        assertThat(failureOf(() -> dl.create(db, List.of("m"), new byte[0], b("manual")).join()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("manual prefixes");
        assertThat(everything()).isEmpty();
    }

    @Test
    void anAutomaticPrefixOverDataAlreadyThereIsRefused() {
        DirectoryLayer dl = new DirectoryLayer();
        // Squat every prefix of the allocator's first window (candidates 0..63).
        db.run(tr -> {
            for (long i = 0; i < 64; i++) {
                tr.set(ByteArrayUtil.join(Tuple.from(i).pack(), b("squatter")), b("x"));
            }
            return null;
        });
        assertThat(failureOf(() -> dl.create(db, List.of("d")).join()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("keys stored at the prefix");
    }

    // ---------------------------------------------------------------- raw layout

    @Test
    void rawKeysAreFoundationDbsDirectoryFormat() {
        DirectoryLayer dl = DirectoryLayer.getDefault();
        DirectorySubspace app = dl.create(db, List.of("app"), b("L")).join();
        byte[] prefix = app.getKey();
        // Automatic prefixes are tuple-encoded integers from the allocator's first window.
        long candidate = Tuple.fromBytes(prefix).getLong(0);
        assertThat(candidate).isBetween(0L, 63L);

        Subspace root = new Subspace(ROOT_NODE);
        assertThat(DirectoryLayer.DEFAULT_NODE_SUBSPACE.get(NODE_PREFIX).getKey()).isEqualTo(ROOT_NODE);
        byte[] versionKey = root.pack(Tuple.from((Object) b("version")));
        byte[] subdirKey = root.get(0).pack(Tuple.from("app"));
        byte[] layerKey = new Subspace(NODE_PREFIX).get(prefix).pack(Tuple.from((Object) b("layer")));
        Subspace hca = root.get(b("hca"));

        List<KeyValue> all = everything();
        assertThat(all).allSatisfy(kv -> assertThat(kv.getKey()[0]).isEqualTo((byte) 0xfe));
        assertThat(versionKey).isEqualTo(ByteArrayUtil.join(ROOT_NODE, new byte[] {0x01}, b("version"), new byte[] {0x00}));
        assertThat(subdirKey).isEqualTo(ByteArrayUtil.join(ROOT_NODE, new byte[] {0x14, 0x02}, b("app"), new byte[] {0x00}));

        byte[] versionValue = valueOf(all, versionKey);
        ByteBuffer v = ByteBuffer.wrap(versionValue).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(versionValue).hasSize(12);
        assertThat(new int[] {v.getInt(), v.getInt(), v.getInt()}).containsExactly(1, 0, 0);
        assertThat(valueOf(all, subdirKey)).isEqualTo(prefix);
        assertThat(valueOf(all, layerKey)).isEqualTo(b("L"));
        // The allocator: counter of window 0 (little-endian 1), and the candidate's allocation key.
        byte[] counter = hca.get(0).pack(Tuple.from(0L));
        assertThat(valueOf(all, counter)).containsExactly(1, 0, 0, 0, 0, 0, 0, 0);
        assertThat(valueOf(all, hca.get(1).pack(Tuple.from(candidate)))).isEmpty();
        assertThat(all).hasSize(5);
    }

    private static byte[] valueOf(List<KeyValue> kvs, byte[] key) {
        for (KeyValue kv : kvs) {
            if (java.util.Arrays.equals(kv.getKey(), key)) {
                return kv.getValue();
            }
        }
        throw new AssertionError("no key " + ByteArrayUtil.printable(key) + " in " + printable(kvs));
    }

    private static String printable(List<KeyValue> kvs) {
        StringBuilder sb = new StringBuilder();
        for (KeyValue kv : kvs) {
            sb.append(ByteArrayUtil.printable(kv.getKey())).append(" = ").append(ByteArrayUtil.printable(kv.getValue())).append('\n');
        }
        return sb.toString();
    }
}
