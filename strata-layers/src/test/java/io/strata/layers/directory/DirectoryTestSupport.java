package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Helpers shared by the directory tests. */
final class DirectoryTestSupport {
    private DirectoryTestSupport() {
    }

    /** What {@code action} threw, unwrapped from the future wrappers. */
    static Throwable failure(Runnable action) {
        try {
            action.run();
        } catch (Throwable t) {
            Throwable cause = t;
            while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
                cause = cause.getCause();
            }
            return cause;
        }
        throw new AssertionError("expected a failure");
    }

    /** Every key and value of {@code db}. */
    static List<KeyValue> dump(Database db) {
        return db.run(tr -> tr.getRange(new byte[0], new byte[] {(byte) 0xFF}).asList().join());
    }

    /**
     * Renders a database as sorted text in which every directory prefix is replaced by the
     * label given to it in {@code labels}: node keys as tuples, the allocator's candidates as
     * the label of the prefix they encode (after the content subspace's key), content keys as label + rest.
     */
    static List<String> render(Database db, Subspace nodeSubspace, Subspace contentSubspace, Map<ByteBuffer, String> labels) {
        List<Subspace[]> layers = new ArrayList<>();
        layers.add(new Subspace[] {nodeSubspace, contentSubspace});
        return render(db, layers, labels);
    }

    /**
     * As above, for several directory layers (node and content subspace each): the root one
     * and those of partitions. A key belongs to the layer with the longest node subspace
     * containing it.
     */
    static List<String> render(Database db, List<Subspace[]> layers, Map<ByteBuffer, String> labels) {
        List<String> lines = new ArrayList<>();
        for (KeyValue kv : dump(db)) {
            Subspace[] layer = null;
            for (Subspace[] candidate : layers) {
                if (candidate[0].contains(kv.getKey())
                        && (layer == null || candidate[0].getKey().length > layer[0].getKey().length)) {
                    layer = candidate;
                }
            }
            String key = layer == null ? renderContent(kv.getKey(), labels) : renderKey(kv.getKey(), layer[0], layer[1], labels);
            lines.add(key + " = " + renderBytes(kv.getValue(), labels));
        }
        lines.sort(null);
        return lines;
    }

    private static String renderKey(byte[] key, Subspace nodeSubspace, Subspace contentSubspace, Map<ByteBuffer, String> labels) {
        {
            List<Object> items = nodeSubspace.unpack(key).getItems();
            List<String> rendered = new ArrayList<>();
            boolean allocatorRecent = items.size() == 4 && items.get(0) instanceof byte[] root
                    && java.util.Arrays.equals(root, nodeSubspace.getKey()) && Long.valueOf(1).equals(items.get(2));
            for (int i = 0; i < items.size(); i++) {
                Object item = items.get(i);
                if (item instanceof byte[] bytes) {
                    rendered.add(java.util.Arrays.equals(bytes, nodeSubspace.getKey())
                            ? "ROOT" + renderBytes(contentSubspace.getKey(), labels) : renderBytes(bytes, labels));
                } else if (allocatorRecent && i == 3) {
                    rendered.add("candidate(" + renderBytes(ByteArrayUtil.join(contentSubspace.getKey(), Tuple.from(item).pack()), labels) + ")");
                } else {
                    rendered.add(String.valueOf(item));
                }
            }
            return "node" + rendered;
        }
    }

    private static String renderContent(byte[] key, Map<ByteBuffer, String> labels) {
        byte[] best = null;
        String bestLabel = null;
        for (Map.Entry<ByteBuffer, String> e : labels.entrySet()) {
            byte[] prefix = new byte[e.getKey().remaining()];
            e.getKey().duplicate().get(prefix);
            if (ByteArrayUtil.startsWith(key, prefix) && (best == null || prefix.length > best.length)) {
                best = prefix;
                bestLabel = e.getValue();
            }
        }
        if (best == null) {
            return "raw " + ByteArrayUtil.printable(key);
        }
        return "content<" + bestLabel + ">" + ByteArrayUtil.printable(java.util.Arrays.copyOfRange(key, best.length, key.length));
    }

    private static String renderBytes(byte[] bytes, Map<ByteBuffer, String> labels) {
        String label = labels.get(ByteBuffer.wrap(bytes));
        return label != null ? "<" + label + ">" : "'" + ByteArrayUtil.printable(bytes) + "'";
    }

    /** Labels by path (at first sight) every prefix in {@code tree} not labelled yet. */
    static void label(Map<List<String>, byte[]> tree, Map<ByteBuffer, String> labels) {
        for (Map.Entry<List<String>, byte[]> e : tree.entrySet()) {
            labels.putIfAbsent(ByteBuffer.wrap(e.getValue().clone()), String.join("/", e.getKey()));
        }
    }

    static Map<List<String>, byte[]> newTree() {
        return new HashMap<>();
    }
}
