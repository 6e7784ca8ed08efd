package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The newest version of every key below the MVCC window, packed into the Java heap: the
 * memory engine's store under the window, in the place the disk store takes under
 * {@link io.strata.Storage#SSD} (same contract, {@link DiskStore}, except that it is not
 * durable: the memory engine's log and checkpoints are).
 *
 * <h2>Layout</h2>
 * A copy-on-write B+tree. Leaves are {@link PackedLeaf}s: a dozen or so pairs (about
 * {@link #LEAF_BYTES}) packed into one exactly sized {@code byte[]}, 6 bytes per pair beyond the
 * key and value. Inner nodes ({@link Inner}) hold up to {@link #FANOUT} children with each
 * child's smallest key and the bytes of keys and values under it. Point reads go through
 * {@link PackedIndex} (key to leaf id to leaf) rather than down the tree. For 16-byte keys and
 * 100-byte values the tree takes about 130 bytes per pair and the index 11 to 21 more (161–168
 * per pair measured for the whole engine at a million pairs), and the garbage collector traces
 * one object per dozen pairs, against a chain, a node, a key and a value array per pair in the
 * window's structures.
 *
 * <h2>Writes</h2>
 * A {@link #write} applies a batch's operations in their order: point writes grouped between
 * range deletes, sorted (a key's last write wins) and merged into each leaf they fall in,
 * which is rebuilt once per batch; the path above each rebuilt leaf is copied, full nodes are
 * split evenly, small ones merged with a neighbour; then the new root is published. A write
 * of one key copies a leaf and the nodes above it (a few KiB); a batch of many amortises that
 * over the keys sharing a leaf.
 *
 * <h2>Concurrency</h2>
 * One writer at a time (the catch-up thread, or recovery's writer; successive writers are
 * ordered by the hand-off between them), any number of readers. Nothing reachable from a
 * published {@link Snapshot} ever changes (the index is updated in place, by its own rules): the writer builds new nodes beside the old ones
 * and publishes the new root with a volatile write, so a reader that read the root sees a
 * whole batch or none of it, and a cursor keeps reading the tree it started on — the
 * consistent state {@link DiskStore#cursor} promises — for as long as it is open. Old trees
 * are freed by the garbage collector once no reader holds them.
 */
public final class PackedStore implements DiskStore {
    /** Bytes a leaf aims at: a point write copies about this much. */
    static final int LEAF_BYTES = 2048;
    /** Children an inner node may hold. */
    static final int FANOUT = 64;

    /** A published tree: its root (null when empty), height (0: the root is a leaf), version and sizes. */
    record Snapshot(Object root, int height, long version, long treeHeapBytes, long indexHeapBytes, long dataBytes) {
        long heapBytes() {
            return treeHeapBytes + indexHeapBytes;
        }
    }

    /** Immutable once published. */
    static final class Inner {
        /** {@code firstKeys[i]}: the smallest key under child {@code i}. */
        final byte[][] firstKeys;
        /** Leaves ({@code byte[]}) one level above the leaves, inner nodes above that. */
        final Object[] children;
        /** {@code dataBytes[i]}: bytes of the keys and values under child {@code i}. */
        final long[] dataBytes;
        final long totalDataBytes;
        /** How many leading bytes the first keys of children 1 and on share (a subspace's prefix, often). */
        private final int skip;
        /**
         * {@code windows[i]}, {@code i >= 1}: the eight bytes of {@code firstKeys[i]} after
         * {@link #skip} ({@link ByteKeys#window}), so that {@link #childFor} decides most steps
         * without loading a first key's array, a cache miss each.
         */
        private final long[] windows;

        Inner(byte[][] firstKeys, Object[] children, long[] dataBytes) {
            this.firstKeys = firstKeys;
            this.children = children;
            this.dataBytes = dataBytes;
            long total = 0;
            for (long b : dataBytes) {
                total += b;
            }
            this.totalDataBytes = total;
            int n = firstKeys.length;
            int shared = 0;
            if (n > 1) {
                int m = Arrays.mismatch(firstKeys[1], firstKeys[n - 1]); // sorted: what the ends share, all share
                shared = m < 0 ? firstKeys[1].length : m;
            }
            this.skip = shared;
            this.windows = new long[n];
            for (int i = 1; i < n; i++) {
                windows[i] = ByteKeys.window(firstKeys[i], shared);
            }
        }

        /** The child whose keys would include {@code key}: the last whose first key is at most it, else the first. */
        int childFor(byte[] key) {
            int n = firstKeys.length;
            if (n <= 1) {
                return 0;
            }
            if (skip > 0) {
                // A key that differs from the shared bytes is before or after every first key from 1 on.
                int c = Arrays.compareUnsigned(key, 0, Math.min(skip, key.length), firstKeys[1], 0, skip);
                if (c != 0) {
                    return c < 0 ? 0 : n - 1;
                }
            }
            long w = ByteKeys.window(key, skip);
            int lo = 1;
            int hi = n - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int c = Long.compareUnsigned(windows[mid], w);
                if (c == 0) {
                    c = ByteKeys.compare(firstKeys[mid], key);
                }
                if (c <= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return lo - 1;
        }

        /** What this node takes on the heap, its first keys included when it is just above the leaves. */
        long heapBytes(boolean aboveLeaves) {
            long n = 40 + refs(firstKeys.length) * 2 + ((16L + 8L * dataBytes.length + 7) & ~7L) * 2; // dataBytes and windows
            if (aboveLeaves) {
                for (byte[] k : firstKeys) {
                    n += HeapSizes.array(k.length);
                }
            }
            return n;
        }

        private static long refs(int n) {
            return (16L + 4L * n + 7) & ~7L;
        }
    }

    private volatile Snapshot current = new Snapshot(null, 0, 0, 0, 0, 0);

    /** Where each key's leaf is, for point reads. */
    private final PackedIndex index;
    /** Writer only: reused between rebuilds. */
    private final PackedRun run = new PackedRun();
    private final KeyOrder keyOrder = new KeyOrder();
    /** Writer only: the heap and data bytes of the tree being built, as of the changes so far. */
    private long heapBytes;
    private long dataBytes;

    /** An empty store at version 0. */
    public PackedStore() {
        this.index = new PackedIndex();
    }

    /**
     * Tests: a store whose index gives leaf ids at least {@code indexIdBits} bits, so that its
     * tags are short and many keys share one (see {@link PackedIndex}).
     */
    PackedStore(int indexIdBits) {
        this.index = new PackedIndex(indexIdBits);
    }

    /** What the tree takes on the heap, about: leaves exactly, inner nodes as a 64-bit JVM with compressed references lays them out. */
    @Override
    public long heapBytes() {
        return current.heapBytes();
    }

    /** Bytes of the keys and values held. */
    public long dataBytes() {
        return current.dataBytes;
    }

    /**
     * Tests: walks the whole tree and checks its shape — keys ascending across leaves, first
     * keys and byte counts right, every leaf at the same depth, no empty node — and that the
     * kept sizes match what it holds. Returns the number of keys.
     */
    long verify() {
        Snapshot s = current;
        if (s.root == null) {
            if (s.treeHeapBytes != 0 || s.dataBytes != 0 || index.size() != 0 || index.leafCount() != 0) {
                throw new AssertionError("an empty tree with sizes " + s.treeHeapBytes + "/" + s.dataBytes);
            }
            return 0;
        }
        long[] sizes = new long[4]; // heap, data, keys, leaves
        byte[][] last = {null};
        verify(s.root, s.height, sizes, last, index);
        if (sizes[2] != index.size()) {
            throw new AssertionError("the index holds " + index.size() + " keys, the tree " + sizes[2]);
        }
        if (sizes[3] != index.leafCount()) {
            throw new AssertionError("the index has " + index.leafCount() + " leaf ids in use, the tree " + sizes[3] + " leaves");
        }
        if (sizes[0] != s.treeHeapBytes || sizes[1] != s.dataBytes) {
            throw new AssertionError("sizes kept " + s.treeHeapBytes + "/" + s.dataBytes + ", counted " + sizes[0] + "/" + sizes[1]);
        }
        return sizes[2];
    }

    private static byte[] verify(Object node, int height, long[] sizes, byte[][] last, PackedIndex index) {
        if (height == 0) {
            byte[] leaf = (byte[]) node;
            int n = PackedLeaf.count(leaf);
            if (n == 0) {
                throw new AssertionError("an empty leaf in the tree");
            }
            for (int i = 0; i < n; i++) {
                byte[] k = PackedLeaf.key(leaf, i);
                if (last[0] != null && ByteKeys.compare(last[0], k) >= 0) {
                    throw new AssertionError("keys out of order: " + ByteKeys.printable(last[0]) + " then " + ByteKeys.printable(k));
                }
                last[0] = k;
                if (!Arrays.equals(index.get(k, ByteKeys.hash(k)), PackedLeaf.value(leaf, i))) {
                    throw new AssertionError("the index does not find " + ByteKeys.printable(k));
                }
            }
            if (index.leaf(PackedLeaf.id(leaf)) != leaf) {
                throw new AssertionError("leaf " + PackedLeaf.id(leaf) + " is not the index's leaf of its id");
            }
            sizes[0] += HeapSizes.array(leaf.length);
            sizes[1] += PackedLeaf.dataBytes(leaf);
            sizes[3]++;
            sizes[2] += n;
            return PackedLeaf.key(leaf, 0);
        }
        Inner in = (Inner) node;
        if (in.children.length == 0 || in.children.length > FANOUT) {
            throw new AssertionError("an inner node of " + in.children.length + " children");
        }
        sizes[0] += in.heapBytes(height == 1);
        long total = 0;
        for (int c = 0; c < in.children.length; c++) {
            long before = sizes[1];
            byte[] first = verify(in.children[c], height - 1, sizes, last, index);
            if (!Arrays.equals(first, in.firstKeys[c])) {
                throw new AssertionError("child " + c + " starts at " + ByteKeys.printable(first) + ", its parent says "
                        + ByteKeys.printable(in.firstKeys[c]));
            }
            if (sizes[1] - before != in.dataBytes[c]) {
                throw new AssertionError("child " + c + " holds " + (sizes[1] - before) + " bytes, its parent says " + in.dataBytes[c]);
            }
            total += in.dataBytes[c];
        }
        if (total != in.totalDataBytes) {
            throw new AssertionError("an inner node's total is wrong");
        }
        return in.firstKeys[0];
    }

    /** The value of {@code key} as of the newest batch, or one racing with it (see {@link PackedIndex}). */
    @Override
    public byte[] get(byte[] key) {
        return index.get(key, ByteKeys.hash(key));
    }

    @Override
    public byte[] get(byte[] key, int hash) {
        return index.get(key, hash);
    }

    @Override
    public Cursor cursor(byte[] lo, byte[] hi, boolean reverse) {
        return new PackedCursor(current, lo, hi, reverse);
    }

    @Override
    public boolean anyKeyIn(byte[] lo, byte[] hi) {
        if (ByteKeys.compare(lo, hi) >= 0) {
            return false;
        }
        try (PackedCursor c = new PackedCursor(current, lo, hi, false)) {
            return c.hasNext();
        }
    }

    @Override
    public long approximateBytes(byte[] lo, byte[] hi) {
        if (ByteKeys.compare(lo, hi) >= 0) {
            return 0;
        }
        Snapshot s = current;
        return bytesBelow(s, hi) - bytesBelow(s, lo);
    }

    /** Bytes of the keys and values of the keys below {@code key}. */
    private static long bytesBelow(Snapshot s, byte[] key) {
        Object node = s.root;
        if (node == null) {
            return 0;
        }
        long total = 0;
        for (int h = s.height; h > 0; h--) {
            Inner in = (Inner) node;
            int c = in.childFor(key);
            for (int i = 0; i < c; i++) {
                total += in.dataBytes[i];
            }
            node = in.children[c];
        }
        byte[] leaf = (byte[]) node;
        return total + PackedLeaf.dataBytesBefore(leaf, PackedLeaf.ceiling(leaf, key));
    }

    @Override
    public Batch newBatch() {
        return new PackedBatch();
    }

    @Override
    public long appliedVersion() {
        return current.version;
    }

    /** Nothing to do: this store is not durable (the memory engine's log and checkpoints are). */
    @Override
    public void makeDurable() {
    }

    @Override
    public boolean durable() {
        return false;
    }

    @Override
    public void close() {
        current = new Snapshot(null, 0, current.version, 0, 0, 0);
        index.clear();
    }

    /** Sizes the index for {@code keys} more keys at once (a recovery's checkpoint), rather than doubling it through the load. */
    @Override
    public void expectKeys(long keys) {
        index.reserve((int) Math.min(keys, 1 << 28));
    }

    /**
     * Sizes the index for the new keys about {@code bytes} of log may bring, each entry taken
     * at the average size of those held plus the log's own bytes per entry: the index then
     * grows once, before the replay, instead of rehashing every key held each time it doubles
     * (a sixth of the recovery writer's time at 1 GiB). Records that overwrite keys make it an
     * overestimate — a log of a hammered counter over a small store most of all — so it is
     * capped at the keys held, or {@link #LOG_HINT_MIN_CAP} when fewer: a checkpoint is due
     * once the log outgrows the last one ({@code docs/format.md}), so a replay rarely adds
     * more, and the index still grows past the cap if it does. An index reserved far beyond
     * its keys shrinks at the next write ({@link PackedIndex#settle}). No hint without keys to
     * average: the index then grows as the keys arrive.
     */
    @Override
    public void expectLogBytes(long bytes) {
        int keys = index.size();
        if (keys == 0 || bytes <= 0) {
            return;
        }
        long perEntry = current.dataBytes / keys + LOG_BYTES_PER_ENTRY;
        index.reserve((int) Math.min(bytes / perEntry, Math.max(keys, LOG_HINT_MIN_CAP)));
    }

    /** What a log entry takes besides its key and value: a type byte and two lengths ({@code LogFormat}). */
    private static final int LOG_BYTES_PER_ENTRY = 9;
    /** {@link #expectLogBytes} reserves for at most this many new keys, or the keys held if more: 8 MiB of index. */
    static final int LOG_HINT_MIN_CAP = 1 << 20;

    /** The slots of the index's key table now, reservations included; writer only (tests). */
    int indexSlots() {
        return index.slots();
    }

    @Override
    public void write(Batch batch, long version) {
        PackedBatch ops = (PackedBatch) batch;
        Snapshot s = current;
        Object root = s.root == null ? PackedLeaf.EMPTY : s.root;
        int height = s.height;
        heapBytes = s.root == null ? HeapSizes.array(PackedLeaf.EMPTY.length) : s.treeHeapBytes;
        dataBytes = s.dataBytes;
        int n = ops.size();
        index.reserve(n);
        for (int i = 0; i < n; ) {
            List<Object> replaced;
            if (ops.kinds[i] == PackedBatch.DELETE_RANGE) {
                replaced = deleteRange(root, height, ops.keys[i], ops.values[i]);
                i++;
            } else {
                int end = i;
                while (end < n && ops.kinds[end] != PackedBatch.DELETE_RANGE) {
                    end++;
                }
                int[] order = keyOrder.sortedLastWins(ops.keys, i, end);
                replaced = apply(root, height, ops, order, 0, order.length);
                i = end;
            }
            if (replaced.size() == 1 && replaced.get(0) == root) {
                continue;
            }
            dropped(root, height);
            // Grow the tree while a level has more than one node; shrink it while the root has one child.
            while (replaced.size() > 1) {
                replaced = group(replaced, firstKeys(replaced, height), height);
                height++;
            }
            root = replaced.isEmpty() ? PackedLeaf.EMPTY : replaced.get(0);
            if (replaced.isEmpty()) {
                heapBytes += HeapSizes.array(PackedLeaf.EMPTY.length);
                height = 0;
            }
            while (height > 0 && ((Inner) root).children.length == 1) {
                heapBytes -= ((Inner) root).heapBytes(height == 1);
                root = ((Inner) root).children[0];
                height--;
            }
        }
        index.settle();
        keyOrder.trim();
        boolean empty = root == PackedLeaf.EMPTY;
        current = new Snapshot(empty ? null : root, empty ? 0 : height, version,
                empty ? 0 : heapBytes, index.heapBytes(), dataBytes);
    }

    /**
     * Applies the point writes {@code order[from..to)} (indexes into {@code ops}, sorted by key,
     * one per key) to {@code node} at {@code height}: the nodes that replace it, possibly
     * none, or {@code node} itself when nothing changed.
     */
    private List<Object> apply(Object node, int height, PackedBatch ops, int[] order, int from, int to) {
        if (height == 0) {
            return applyToLeaf((byte[]) node, ops, order, from, to);
        }
        Inner in = (Inner) node;
        Children children = new Children(in.children.length + 2);
        boolean changed = false;
        int i = from;
        for (int c = 0; c < in.children.length; c++) {
            if (i < to && c < in.children.length - 1) {
                // The children before the next write's are kept without comparing the write's
                // key with each one's first key: a round's writes are mostly sparse over a
                // node of many children.
                int target = Math.max(c, in.childFor(ops.keys[order[i]]));
                while (c < target) {
                    children.keep(in, c++);
                }
            }
            int end = i;
            if (c == in.children.length - 1) {
                end = to;
            } else {
                while (end < to && ByteKeys.compare(ops.keys[order[end]], in.firstKeys[c + 1]) < 0) {
                    end++;
                }
            }
            if (end == i) {
                children.keep(in, c);
                continue;
            }
            List<Object> replaced = apply(in.children[c], height - 1, ops, order, i, end);
            i = end;
            if (replaced.size() == 1 && replaced.get(0) == in.children[c]) {
                children.keep(in, c);
                continue;
            }
            changed = true;
            dropped(in.children[c], height - 1);
            children.addRebuilt(replaced, height - 1);
        }
        if (!changed) {
            return List.of(node);
        }
        return rebuild(height, children);
    }

    private List<Object> applyToLeaf(byte[] leaf, PackedBatch ops, int[] order, int from, int to) {
        run.clear();
        boolean changed = false;
        int n = PackedLeaf.count(leaf);
        int j = 0;
        for (int k = from; k < to; k++) {
            int op = order[k];
            byte[] key = ops.keys[op];
            int c = -1;
            if (j < n && (c = PackedLeaf.compare(leaf, j, key)) < 0) {
                // The key is further on: a binary search finds it (a round's keys are mostly
                // a few per leaf), and the entries before it are kept without comparing each.
                int at = PackedLeaf.find(leaf, j + 1, key);
                int next = at >= 0 ? at : -at - 1;
                while (j < next) {
                    run.addExisting(leaf, j++);
                }
                c = at >= 0 ? 0 : 1;
            }
            boolean present = j < n && c == 0;
            if (ops.kinds[op] == PackedBatch.PUT) {
                byte[] value = ops.values[op];
                if (present && Arrays.equals(leaf, PackedLeaf.valueStart(leaf, j), PackedLeaf.valueEnd(leaf, j), value, 0, value.length)) {
                    run.addExisting(leaf, j);
                } else {
                    run.addNew(key, value, present ? PackedLeaf.id(leaf) : PackedLeaf.NO_ID);
                    changed = true;
                }
            } else if (present) {
                index.remove(leaf, j);
                changed = true;
            }
            if (present) {
                j++;
            }
        }
        if (!changed) {
            return List.of(leaf);
        }
        while (j < n) {
            run.addExisting(leaf, j++);
        }
        return newLeaves(PackedLeaf.id(leaf));
    }

    /**
     * The run cut into leaves, counted into the sizes and entered in the index. The first
     * keeps id {@code keep} (the leaf it replaces; {@link PackedLeaf#NO_ID}: none), the others
     * take new ids; {@code keep} is freed when no leaf is left. The index's order (see
     * {@link PackedIndex}): leaves under new ids enter the table before any key moves to them;
     * the leaf under {@code keep} replaces its predecessor after the keys that leave it moved
     * out, and before keys from another leaf move in (a merge; a run never has both).
     */
    private List<Object> newLeaves(int keep) {
        int firstId = keep != PackedLeaf.NO_ID ? keep : index.newId();
        List<byte[]> leaves = run.cut(LEAF_BYTES, firstId, index::newId);
        List<Object> out = new ArrayList<>(leaves.size());
        boolean movesIn = false;
        for (int p = 0; p < leaves.size(); p++) {
            byte[] l = leaves.get(p);
            heapBytes += HeapSizes.array(l.length);
            dataBytes += PackedLeaf.dataBytes(l);
            out.add(l);
            if (p > 0) {
                index.publish(l);
            } else {
                for (int i = run.cutAt(0); i < run.cutAt(1) && !movesIn; i++) {
                    int from = run.indexedIn(i);
                    movesIn = from != PackedLeaf.NO_ID && from != firstId;
                }
            }
        }
        assert !movesIn || leaves.size() == 1 : "a run both merges and splits";
        if (!leaves.isEmpty() && (movesIn || keep == PackedLeaf.NO_ID)) {
            index.publish(leaves.get(0));
        }
        for (int p = 0; p < leaves.size(); p++) {
            byte[] l = leaves.get(p);
            int id = PackedLeaf.id(l);
            for (int i = run.cutAt(p), j = 0; i < run.cutAt(p + 1); i++, j++) {
                if (run.indexedIn(i) != id) {
                    index.place(l, j, run.indexedIn(i));
                }
            }
        }
        if (leaves.isEmpty()) {
            if (keep != PackedLeaf.NO_ID) {
                index.free(keep);
            } else {
                index.free(firstId);
            }
        } else if (!movesIn && keep != PackedLeaf.NO_ID) {
            index.publish(leaves.get(0));
        }
        run.clear();
        return out;
    }

    /** Counts {@code node}, no longer in the tree being built, out of the sizes (its own bytes only). */
    private void dropped(Object node, int height) {
        if (height == 0) {
            byte[] leaf = (byte[]) node;
            heapBytes -= HeapSizes.array(leaf.length);
            dataBytes -= PackedLeaf.dataBytes(leaf);
        } else {
            heapBytes -= ((Inner) node).heapBytes(height == 1);
        }
    }

    /** Counts {@code node} and everything under it out of the sizes and the index. */
    private void droppedWhole(Object node, int height) {
        dropped(node, height);
        if (height == 0) {
            byte[] leaf = (byte[]) node;
            for (int j = 0, n = PackedLeaf.count(leaf); j < n; j++) {
                index.remove(leaf, j);
            }
            index.free(PackedLeaf.id(leaf));
        } else {
            for (Object child : ((Inner) node).children) {
                droppedWhole(child, height - 1);
            }
        }
    }

    /** Removes every key of {@code [lo, hi)} under {@code node}: as {@link #apply}. */
    private List<Object> deleteRange(Object node, int height, byte[] lo, byte[] hi) {
        if (ByteKeys.compare(lo, hi) >= 0) {
            return List.of(node);
        }
        if (height == 0) {
            byte[] leaf = (byte[]) node;
            int n = PackedLeaf.count(leaf);
            int first = PackedLeaf.ceiling(leaf, lo);
            int end = PackedLeaf.ceiling(leaf, hi);
            if (first >= end) {
                return List.of(leaf);
            }
            run.clear();
            for (int j = first; j < end; j++) {
                index.remove(leaf, j);
            }
            for (int j = 0; j < first; j++) {
                run.addExisting(leaf, j);
            }
            for (int j = end; j < n; j++) {
                run.addExisting(leaf, j);
            }
            return newLeaves(PackedLeaf.id(leaf));
        }
        Inner in = (Inner) node;
        int firstChild = in.childFor(lo);
        int lastChild = in.childFor(hi); // may hold keys below hi
        Children children = new Children(in.children.length);
        boolean changed = false;
        for (int c = 0; c < in.children.length; c++) {
            Object child = in.children[c];
            if (c < firstChild || c > lastChild) {
                children.keep(in, c);
                continue;
            }
            boolean whole = c > firstChild && c < lastChild
                    || c == firstChild && c < lastChild && ByteKeys.compare(in.firstKeys[c], lo) >= 0;
            if (whole) {
                droppedWhole(child, height - 1);
                changed = true;
                continue;
            }
            List<Object> replaced = deleteRange(child, height - 1, lo, hi);
            if (replaced.size() == 1 && replaced.get(0) == child) {
                children.keep(in, c);
                continue;
            }
            changed = true;
            dropped(child, height - 1);
            children.addRebuilt(replaced, height - 1);
        }
        if (!changed) {
            return List.of(node);
        }
        return rebuild(height, children);
    }

    /**
     * The nodes that replace an inner node at {@code height} given its new children: rebuilt
     * children that came out small merged with a neighbour, then cut into nodes of at most
     * {@link #FANOUT} children, as even as possible.
     */
    private List<Object> rebuild(int height, Children children) {
        mergeSmall(children, height - 1);
        if (children.nodes.isEmpty()) {
            return List.of();
        }
        return group(children.nodes, children.keys, height - 1);
    }

    /** The new children of an inner node being rebuilt, each with its first key and whether it is new. */
    private static final class Children {
        final List<Object> nodes;
        final List<byte[]> keys;
        final List<Boolean> rebuilt;

        Children(int capacity) {
            nodes = new ArrayList<>(capacity);
            keys = new ArrayList<>(capacity);
            rebuilt = new ArrayList<>(capacity);
        }

        void keep(Inner in, int c) {
            nodes.add(in.children[c]);
            keys.add(in.firstKeys[c]);
            rebuilt.add(false);
        }

        void addRebuilt(List<Object> replaced, int height) {
            for (Object r : replaced) {
                nodes.add(r);
                keys.add(firstKey(r, height));
                rebuilt.add(true);
            }
        }

        void remove(int i) {
            nodes.remove(i);
            keys.remove(i);
            rebuilt.remove(i);
        }
    }

    /** The smallest key under {@code node} (not empty) at {@code height}: a copy for a leaf, shared for an inner node. */
    private static byte[] firstKey(Object node, int height) {
        return height == 0 ? PackedLeaf.key((byte[]) node, 0) : ((Inner) node).firstKeys[0];
    }

    private static List<byte[]> firstKeys(List<Object> nodes, int height) {
        List<byte[]> keys = new ArrayList<>(nodes.size());
        for (Object n : nodes) {
            keys.add(firstKey(n, height));
        }
        return keys;
    }

    /** Nodes at {@code childHeight + 1} holding {@code children}, at most {@link #FANOUT} each, as even as possible. */
    private List<Object> group(List<Object> children, List<byte[]> keys, int childHeight) {
        int n = children.size();
        int pieces = (n + FANOUT - 1) / FANOUT;
        List<Object> out = new ArrayList<>(pieces);
        int from = 0;
        for (int p = 0; p < pieces; p++) {
            int to = (int) ((long) n * (p + 1) / pieces);
            int m = to - from;
            byte[][] firstKeys = new byte[m][];
            Object[] nodes = new Object[m];
            long[] bytes = new long[m];
            for (int i = 0; i < m; i++) {
                Object child = children.get(from + i);
                nodes[i] = child;
                firstKeys[i] = keys.get(from + i);
                bytes[i] = childHeight == 0 ? PackedLeaf.dataBytes((byte[]) child) : ((Inner) child).totalDataBytes;
            }
            Inner in = new Inner(firstKeys, nodes, bytes);
            heapBytes += in.heapBytes(childHeight == 0);
            out.add(in);
            from = to;
        }
        return out;
    }

    /** Merges each rebuilt child that came out small into a neighbour, when the two fit in one. */
    private void mergeSmall(Children children, int childHeight) {
        List<Object> nodes = children.nodes;
        for (int i = 0; i < nodes.size(); i++) {
            if (!children.rebuilt.get(i) || !small(nodes.get(i), childHeight)) {
                continue;
            }
            int with = -1;
            if (i + 1 < nodes.size() && fits(nodes.get(i), nodes.get(i + 1), childHeight)) {
                with = i;
            } else if (i > 0 && fits(nodes.get(i - 1), nodes.get(i), childHeight)) {
                with = i - 1;
            }
            if (with < 0) {
                continue;
            }
            nodes.set(with, merge(nodes.get(with), nodes.get(with + 1), childHeight));
            children.rebuilt.set(with, true);
            children.remove(with + 1); // the merged node keeps the first key of the left one
            i = with - 1; // the merged node may still be small
        }
    }

    private static boolean small(Object node, int height) {
        return height == 0 ? ((byte[]) node).length < LEAF_BYTES / 4 : ((Inner) node).children.length < FANOUT / 4;
    }

    private static boolean fits(Object a, Object b, int height) {
        return height == 0
                ? ((byte[]) a).length + ((byte[]) b).length <= LEAF_BYTES
                : ((Inner) a).children.length + ((Inner) b).children.length <= FANOUT;
    }

    /** One node holding what {@code a} and then {@code b} hold; both are counted out, it in. */
    private Object merge(Object a, Object b, int height) {
        dropped(a, height);
        dropped(b, height);
        if (height == 0) {
            run.clear();
            run.addAll((byte[]) a);
            run.addAll((byte[]) b);
            List<Object> leaves = newLeaves(PackedLeaf.id((byte[]) a));
            assert leaves.size() == 1;
            index.free(PackedLeaf.id((byte[]) b)); // its keys moved to a's id
            return leaves.get(0);
        }
        Inner x = (Inner) a;
        Inner y = (Inner) b;
        Inner in = new Inner(concat(x.firstKeys, y.firstKeys), concat(x.children, y.children), concat(x.dataBytes, y.dataBytes));
        heapBytes += in.heapBytes(height == 1);
        return in;
    }

    private static <T> T[] concat(T[] a, T[] b) {
        T[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
