package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same operations by our directory layer and by fdb-java's, each in its own database,
 * leave the same keys and values once the randomly allocated prefixes are named by the path
 * they were first seen at.
 */
class DirectoryDifferentialTest {
    /** The operations, on either implementation. */
    private interface Dirs {
        byte[] createOrOpen(Transaction tr, List<String> path, byte[] layer);

        byte[] create(Transaction tr, List<String> path, byte[] layer, byte[] prefix);

        byte[] move(Transaction tr, List<String> from, List<String> to);

        void remove(Transaction tr, List<String> path);

        boolean removeIfExists(Transaction tr, List<String> path);

        List<String> list(Transaction tr, List<String> path);

        /** prefix and layer */
        byte[][] open(Transaction tr, List<String> path);
    }

    private static final class Ours implements Dirs {
        final StrataDirectoryLayer layer;

        Ours(StrataDirectoryLayer layer) {
            this.layer = layer;
        }

        public byte[] createOrOpen(Transaction tr, List<String> path, byte[] l) {
            return key(layer.createOrOpen(tr, path, l).join());
        }

        public byte[] create(Transaction tr, List<String> path, byte[] l, byte[] prefix) {
            return key(layer.create(tr, path, l, prefix).join());
        }

        public byte[] move(Transaction tr, List<String> from, List<String> to) {
            return key(layer.move(tr, from, to).join());
        }

        /** As the official adapter's: a partition refuses getKey(), as fdb-java's does. */
        private static byte[] key(StrataDirectory d) {
            return d.isPartition() ? new byte[0] : d.getKey();
        }

        public void remove(Transaction tr, List<String> path) {
            layer.remove(tr, path).join();
        }

        public boolean removeIfExists(Transaction tr, List<String> path) {
            return layer.removeIfExists(tr, path).join();
        }

        public List<String> list(Transaction tr, List<String> path) {
            return layer.list(tr, path).join();
        }

        public byte[][] open(Transaction tr, List<String> path) {
            StrataDirectory d = layer.open(tr, path).join();
            return new byte[][] {d.getKey(), d.getLayer()};
        }
    }

    private static final class Official implements Dirs {
        final DirectoryLayer layer;

        Official(DirectoryLayer layer) {
            this.layer = layer;
        }

        public byte[] createOrOpen(Transaction tr, List<String> path, byte[] l) {
            return key(layer.createOrOpen(tr, path, l).join());
        }

        public byte[] create(Transaction tr, List<String> path, byte[] l, byte[] prefix) {
            return key(layer.create(tr, path, l, prefix).join());
        }

        public byte[] move(Transaction tr, List<String> from, List<String> to) {
            return key(layer.move(tr, from, to).join());
        }

        public void remove(Transaction tr, List<String> path) {
            layer.remove(tr, path).join();
        }

        public boolean removeIfExists(Transaction tr, List<String> path) {
            return layer.removeIfExists(tr, path).join();
        }

        public List<String> list(Transaction tr, List<String> path) {
            return layer.list(tr, path).join();
        }

        public byte[][] open(Transaction tr, List<String> path) {
            DirectorySubspace d = layer.open(tr, path).join();
            return new byte[][] {key(d), d.getLayer()};
        }

        /** A partition's DirectorySubspace refuses getKey(); the tests only need to know one was returned. */
        private static byte[] key(DirectorySubspace d) {
            return Arrays.equals(d.getLayer(), DirectoryLayer.PARTITION_LAYER) ? new byte[0] : d.getKey();
        }
    }

    /** One side of the comparison: an implementation, its database, and its prefix labels. */
    private static final class Side {
        final Dirs dirs;
        final Database db = Strata.inMemory();
        final Subspace nodeSubspace;
        final Subspace contentSubspace;
        final Map<ByteBuffer, String> labels = new HashMap<>();
        final List<Object> results = new ArrayList<>();
        /** Node and content subspace of the root directory layer and of each partition seen. */
        final List<Subspace[]> layers = new ArrayList<>();

        Side(Dirs dirs, Subspace nodeSubspace, Subspace contentSubspace) {
            this.dirs = dirs;
            this.nodeSubspace = nodeSubspace;
            this.contentSubspace = contentSubspace;
            layers.add(new Subspace[] {nodeSubspace, contentSubspace});
        }

        /** Runs one transaction, then labels every prefix now in the tree by its path. */
        void run(java.util.function.Function<Transaction, Object> op) {
            Object result = db.run(op::apply);
            results.add(result instanceof byte[] ? "prefix" : result);
            Map<List<String>, byte[]> tree = new HashMap<>();
            db.run(tr -> {
                walk(tr, List.of(), tree);
                return null;
            });
            DirectoryTestSupport.label(tree, labels);
        }

        /** Reads the tree straight from the node layout, independently of either implementation, partitions included. */
        private void walk(Transaction tr, List<String> path, Map<List<String>, byte[]> tree) {
            walk(tr, path, nodeSubspace, nodeSubspace.getKey(), tree);
        }

        private void walk(Transaction tr, List<String> path, Subspace nodes, byte[] prefix, Map<List<String>, byte[]> tree) {
            Subspace subdirs = nodes.get(prefix).get(0);
            for (KeyValue kv : tr.getRange(subdirs.range()).asList().join()) {
                List<String> child = new ArrayList<>(path);
                child.add(subdirs.unpack(kv.getKey()).getString(0));
                byte[] childPrefix = kv.getValue();
                tree.put(child, childPrefix);
                byte[] layer = tr.get(nodes.get(childPrefix).get(bytes("layer")).getKey()).join();
                if (Arrays.equals(layer, StrataDirectoryLayer.PARTITION_LAYER)) {
                    Subspace inner = new Subspace(ByteArrayUtil.join(childPrefix, new byte[] {(byte) 0xFE}));
                    if (layers.stream().noneMatch(l -> l[0].equals(inner))) {
                        layers.add(new Subspace[] {inner, new Subspace(childPrefix)});
                    }
                    walk(tr, child, inner, inner.getKey(), tree);
                } else {
                    walk(tr, child, nodes, childPrefix, tree);
                }
            }
        }

        List<String> rendered() {
            return DirectoryTestSupport.render(db, layers, labels);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Applies the same script to both sides. */
    private static void script(Side side) {
        Dirs d = side.dirs;
        side.run(tr -> d.removeIfExists(tr, List.of("nope"))); // on an empty database: writes the version
        side.run(tr -> d.createOrOpen(tr, List.of("a"), new byte[0]));
        side.run(tr -> d.createOrOpen(tr, List.of("a", "b", "c"), bytes("L1")));
        side.run(tr -> d.create(tr, List.of("x"), bytes("L2"), null));
        side.run(tr -> d.createOrOpen(tr, List.of("a", "b"), new byte[0]));
        side.run(tr -> {
            tr.set(ByteArrayUtil.join(d.open(tr, List.of("a", "b", "c"))[0], bytes("k1")), bytes("v1"));
            tr.set(ByteArrayUtil.join(d.open(tr, List.of("x"))[0], bytes("k2")), bytes("v2"));
            tr.set(ByteArrayUtil.join(d.open(tr, List.of("a"))[0], bytes("k3")), bytes("v3")); // survives
            return null;
        });
        side.run(tr -> d.move(tr, List.of("a", "b"), List.of("x", "moved")));
        side.run(tr -> d.removeIfExists(tr, List.of("nope")));
        side.run(tr -> d.create(tr, List.of("p"), StrataDirectoryLayer.PARTITION_LAYER, null));
        // Several operations in one transaction, each seeing the previous ones.
        side.run(tr -> {
            for (int i = 0; i < 5; i++) {
                d.createOrOpen(tr, List.of("multi", "m" + i), new byte[0]);
            }
            d.createOrOpen(tr, List.of("multi", "m2"), new byte[0]);
            return d.list(tr, List.of("multi"));
        });
        // Enough allocations to move the allocator past its first window.
        for (int i = 0; i < 40; i++) {
            int n = i;
            side.run(tr -> d.createOrOpen(tr, List.of("n", "d" + n), bytes("layer" + n % 3)));
        }
        side.run(tr -> {
            d.remove(tr, List.of("x"));
            return null;
        });
        side.run(tr -> {
            d.remove(tr, List.of("n", "d3"));
            return d.removeIfExists(tr, List.of("n", "d5"));
        });
        side.run(tr -> d.move(tr, List.of("n"), List.of("m")));
        side.run(tr -> d.list(tr, List.of("m")).size());
        // Inside the partition: its own directory layer, version and allocator.
        side.run(tr -> d.createOrOpen(tr, List.of("p", "in", "deep"), bytes("L3")));
        side.run(tr -> d.create(tr, List.of("p", "other"), new byte[0], null));
        side.run(tr -> d.create(tr, List.of("p", "nested"), StrataDirectoryLayer.PARTITION_LAYER, null));
        side.run(tr -> d.createOrOpen(tr, List.of("p", "nested", "x"), new byte[0]));
        side.run(tr -> {
            tr.set(ByteArrayUtil.join(d.open(tr, List.of("p", "in", "deep"))[0], bytes("k4")), bytes("v4"));
            return d.list(tr, List.of("p"));
        });
        side.run(tr -> d.move(tr, List.of("p", "in"), List.of("p", "moved")));
        side.run(tr -> d.list(tr, List.of("p", "moved")));
        side.run(tr -> d.removeIfExists(tr, List.of("p", "other")));
        side.run(tr -> {
            d.remove(tr, List.of("p", "nested", "x"));
            return d.list(tr, List.of("p", "nested"));
        });
        // A partition with contents inside a plain directory, then removed whole.
        side.run(tr -> d.createOrOpen(tr, List.of("a", "q"), StrataDirectoryLayer.PARTITION_LAYER));
        side.run(tr -> d.createOrOpen(tr, List.of("a", "q", "r", "s"), new byte[0]));
        side.run(tr -> {
            d.remove(tr, List.of("a", "q"));
            return d.list(tr, List.of("a"));
        });
    }

    @Test
    void sameScriptSameBytesOnDefaultSubspaces() {
        Side ours = new Side(new Ours(new StrataDirectoryLayer()), StrataDirectoryLayer.DEFAULT_NODE_SUBSPACE, new Subspace());
        Side official = new Side(new Official(new DirectoryLayer()), DirectoryLayer.DEFAULT_NODE_SUBSPACE, new Subspace());
        try (Database a = ours.db; Database b = official.db) {
            script(ours);
            script(official);
            assertThat(ours.results).isEqualTo(official.results);
            assertThat(ours.labels.values()).containsExactlyInAnyOrderElementsOf(official.labels.values());
            List<String> expected = official.rendered();
            assertThat(expected).anyMatch(line -> line.contains("'version'"))
                    .anyMatch(line -> line.contains("candidate(<"))
                    .anyMatch(line -> line.startsWith("content<"))
                    .noneMatch(line -> line.contains("candidate('"))
                    .noneMatch(line -> line.startsWith("raw "))
                    // Inside partitions too (prefixes are named by the path they were first seen at).
                    .contains("node[ROOT<p>, 0, moved] = <p/in>")
                    .contains("node[ROOT<p/nested>, 'hca', 1, candidate(<p/nested/x>)] = ''")
                    .contains("content<p/in/deep>k4 = 'v4'");
            assertThat(ours.rendered()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void sameScriptSameBytesOnCustomSubspacesWithManualPrefixes() {
        Subspace node = new Subspace(bytes("N"));
        Subspace content = new Subspace(bytes("C"));
        Side ours = new Side(new Ours(new StrataDirectoryLayer(node, content, true)), node, content);
        Side official = new Side(new Official(new DirectoryLayer(node, content, true)), node, content);
        try (Database a = ours.db; Database b = official.db) {
            for (Side side : List.of(ours, official)) {
                script(side);
                side.run(tr -> side.dirs.create(tr, List.of("manual"), bytes("M"), bytes("Z1")));
                side.run(tr -> side.dirs.create(tr, List.of("manual", "inner"), new byte[0], bytes("Z2")));
                side.run(tr -> side.dirs.createOrOpen(tr, List.of("manual", "inner", "auto"), new byte[0]));
            }
            assertThat(ours.results).isEqualTo(official.results);
            assertThat(ours.rendered()).containsExactlyElementsOf(official.rendered());
            assertThat(ours.rendered()).anyMatch(line -> line.contains("<manual/inner>"));
        }
    }
}
