package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The store's chains in key order, for range reads and range clears: a B+tree written by one
 * thread and read by any without locks.
 *
 * <h2>Why not a {@code ConcurrentSkipListMap}</h2>
 * A skip list spends a node per key and an index node per few keys, all kept for the key's
 * life, and an insertion descends some twenty levels, each a likely cache miss. Here a key
 * costs three array slots; keys written together — a layer's keys share prefixes, and a
 * transaction's batch often runs in order — land in the same leaf, whose path stays in
 * cache; and a leaf that fills by appending splits unevenly, so that appended runs leave
 * full leaves behind.
 *
 * <h2>Shape</h2>
 * An inner node with children {@code c[0..n)} has separators {@code k[0..n-1)}; child
 * {@code i} holds the keys in {@code [k[i-1], k[i])} (unbounded at the ends). Leaves hold
 * keys and chains sorted. Emptied leaves are unlinked from their parent, and emptied inner
 * nodes from theirs; nodes are never merged, so a tree that lost most of its keys keeps
 * part-filled leaves.
 *
 * <h2>Searching without loading keys</h2>
 * Every node records how many leading bytes its keys share ({@code skip}) and, for each key,
 * the eight bytes after them ({@code windows}). A search compares the key with the node's
 * first key over the shared bytes, then binary-searches the windows, loading a key only where
 * windows tie: a step costs a load from one array instead of a cache miss on a key's own. A
 * layer's keys share their subspace's prefix, often longer than eight bytes (a Redis sorted
 * set's elements share some twenty), so windows taken from the first byte would decide
 * nothing. An insert that brings a key sharing less shrinks the skip and recomputes the
 * node's windows; a removal leaves it (what is left shares at least as much); a split
 * recomputes both halves' from their first and last keys.
 *
 * <h2>Concurrency: optimistic reads over versioned nodes</h2>
 * Every node carries a stamp, even while the node is stable and odd while the writer
 * changes it (a seqlock, as in Leis et al.'s optimistic lock coupling):
 * <ul>
 *   <li>The writer makes a stamp odd, then (after a store-store fence) changes the node, then
 *       makes it even again with a release write, which publishes the changes. A split
 *       makes odd, top-down, every node it will change before changing any, and a new root
 *       is published before the old root's stamp turns even. Fresh nodes are filled before a
 *       parent links them.</li>
 *   <li>A reader reads a node's stamp (acquire), the fields it needs (plain reads, which may
 *       be torn: lengths are clamped and a missing key restarts), then, after a load-load
 *       fence, the stamp again: a change means the reads may be inconsistent, and the reader
 *       starts over from the root. Going down, it reads the child's stamp before
 *       re-validating the parent, so the child it enters was the parent's child while it
 *       had that stamp: a split that moved its key away changes the child or the parent
 *       first, and fails one of the checks.</li>
 *   <li>What a reader can miss are keys inserted after it began, and those were written at
 *       versions newer than any its read may ask for (the store publishes a version only
 *       after applying it). Keys removed under it are chains no admitted reader needs.</li>
 * </ul>
 * Range reads copy one leaf at a time under validation and continue from that leaf's fence
 * (the separator bounding it), found on the way down, so a cursor never holds a node.
 */
final class SortedIndex {
    static final int LEAF_CAPACITY = 64;
    static final int INNER_CAPACITY = 64;
    private static final VarHandle STAMP =
            Handles.field(MethodHandles.lookup(), Node.class, "stamp", long.class);

    private abstract static class Node {
        /** Read as a volatile (acquire); written through {@link #STAMP} (see {@link #lock}). */
        volatile long stamp;
        /** Entries (leaf) or children (inner); read racily by readers, so clamped. */
        int size;
        /**
         * How many leading bytes every key of the node shares (separators, for an inner node):
         * at most their longest common prefix, so searches compare from there. Read racily by
         * readers; any value the node's stamp validates is right.
         */
        int skip;
        /**
         * Each key's eight bytes from {@link #skip} ({@link ByteKeys#window}): most steps of a binary
         * search are decided by them without loading the key's array, a cache miss each when
         * keys arrive in random order. Where keys share a long prefix — a layer's subspace, a
         * Redis database's key prefix — eight bytes from the start would decide nothing.
         */
        final long[] windows;

        Node(int keyCapacity) {
            this.windows = new long[keyCapacity];
        }
    }

    private static final class Leaf extends Node {
        final byte[][] keys = new byte[LEAF_CAPACITY][];
        final VersionChain[] chains = new VersionChain[LEAF_CAPACITY];

        Leaf() {
            super(LEAF_CAPACITY);
        }
    }

    private static final class Inner extends Node {
        final byte[][] keys = new byte[INNER_CAPACITY - 1][];
        final Node[] children = new Node[INNER_CAPACITY];

        Inner() {
            super(INNER_CAPACITY - 1);
        }
    }

    private volatile Node root = new Leaf();
    /** Writer-owned scratch: the path of the last descent. */
    private Inner[] pathNodes = new Inner[8];
    private int[] pathSlots = new int[8];
    private int depth;
    /**
     * Writer-owned: the leaf of the last insert, the keys bounding it (null: unbounded), and
     * in {@link #pathNodes} its path — valid until the tree's shape changes. Keys written
     * together mostly fall in the same leaf, so an insert inside the bounds skips the descent:
     * three key comparisons instead of some thirty.
     */
    private Leaf finger;
    private byte[] fingerLow;
    private byte[] fingerHigh;
    /** Writer-owned: the keys bounding the leaf of the last descent, {@code [descentLow, descentHigh)}; null for unbounded. */
    private byte[] descentLow;
    private byte[] descentHigh;

    // ------------------------------------------------------------------ writer

    /** Adds {@code chain} under its key, which must be absent. Writer only. */
    void insert(VersionChain chain) {
        byte[] key = chain.key;
        Leaf leaf = finger;
        int pos;
        if (leaf != null && leaf.size > 0 && Arrays.compareUnsigned(key, leaf.keys[leaf.size - 1]) > 0
                && (fingerHigh == null || Arrays.compareUnsigned(key, fingerHigh) < 0)) {
            pos = leaf.size; // the common append: past the last key, so past the low bound too
        } else {
            if (leaf == null || (fingerLow != null && Arrays.compareUnsigned(key, fingerLow) < 0)
                    || (fingerHigh != null && Arrays.compareUnsigned(key, fingerHigh) >= 0)) {
                leaf = descend(key);
                finger = leaf;
                fingerLow = descentLow;
                fingerHigh = descentHigh;
            }
            pos = search(leaf.keys, leaf.windows, leaf.size, leaf.skip, key, false);
        }
        if (pos < leaf.size && Arrays.equals(leaf.keys[pos], key)) {
            throw new IllegalStateException("key already indexed");
        }
        if (leaf.size < LEAF_CAPACITY) {
            int skip = skipWith(leaf, leaf.keys, leaf.size, key);
            lock(leaf);
            reskip(leaf, leaf.keys, leaf.size, skip);
            shiftRight(leaf.keys, leaf.chains, pos, leaf.size);
            System.arraycopy(leaf.windows, pos, leaf.windows, pos + 1, leaf.size - pos);
            leaf.keys[pos] = key;
            leaf.chains[pos] = chain;
            leaf.windows[pos] = ByteKeys.window(key, skip);
            leaf.size++;
            unlock(leaf);
            return;
        }
        finger = null; // the shape changes
        split(leaf, pos, chain);
    }

    /** Removes {@code chain} (by identity); false if it is not held. Writer only. */
    boolean remove(VersionChain chain) {
        finger = null; // the descent below replaces the finger's path
        Leaf leaf = descend(chain.key);
        int pos = search(leaf.keys, leaf.windows, leaf.size, leaf.skip, chain.key, false);
        if (pos >= leaf.size || leaf.chains[pos] != chain) {
            return false;
        }
        lock(leaf);
        int n = leaf.size;
        System.arraycopy(leaf.keys, pos + 1, leaf.keys, pos, n - pos - 1);
        System.arraycopy(leaf.chains, pos + 1, leaf.chains, pos, n - pos - 1);
        System.arraycopy(leaf.windows, pos + 1, leaf.windows, pos, n - pos - 1); // the rest still share the skip
        leaf.keys[n - 1] = null;
        leaf.chains[n - 1] = null;
        leaf.size = n - 1;
        unlock(leaf);
        if (leaf.size == 0 && depth > 0) {
            unlinkEmpty(depth - 1);
        }
        return true;
    }

    /** Walks from the root to the leaf for {@code key}, recording the path and the leaf's bounds. */
    private Leaf descend(byte[] key) {
        depth = 0;
        descentLow = null;
        descentHigh = null;
        Node n = root;
        while (n instanceof Inner) {
            Inner in = (Inner) n;
            int slot = search(in.keys, in.windows, in.size - 1, in.skip, key, true);
            if (slot > 0) {
                descentLow = in.keys[slot - 1];
            }
            if (slot < in.size - 1) {
                descentHigh = in.keys[slot];
            }
            if (depth == pathNodes.length) {
                pathNodes = Arrays.copyOf(pathNodes, depth * 2);
                pathSlots = Arrays.copyOf(pathSlots, depth * 2);
            }
            pathNodes[depth] = in;
            pathSlots[depth++] = slot;
            n = in.children[slot];
        }
        return (Leaf) n;
    }

    /**
     * Splits the full {@code leaf} while inserting {@code chain} at {@code pos}, and the full
     * ancestors above it, growing a new root if the old one splits.
     */
    private void split(Leaf leaf, int pos, VersionChain chain) {
        int top = depth - 1;
        while (top >= 0 && pathNodes[top].size == INNER_CAPACITY) {
            top--;
        }
        // Every node that will change is made odd before any changes, top-down; with the
        // root splitting (top < 0), that includes the old root.
        int from = Math.max(top, 0);
        for (int d = from; d < depth; d++) {
            lock(pathNodes[d]);
        }
        lock(leaf);
        Node oldRoot = root;

        // Appending to a leaf's end (the common order of inserts) leaves it full.
        int leftCount = pos == LEAF_CAPACITY ? LEAF_CAPACITY : (LEAF_CAPACITY + 1) / 2;
        Leaf right = new Leaf();
        int r = 0;
        for (int i = leftCount; i <= LEAF_CAPACITY; i++) {
            right.keys[r] = i == pos ? chain.key : leaf.keys[i < pos ? i : i - 1];
            right.chains[r++] = i == pos ? chain : leaf.chains[i < pos ? i : i - 1];
        }
        right.size = r;
        if (pos < leftCount) {
            shiftRight(leaf.keys, leaf.chains, pos, leftCount - 1);
            leaf.keys[pos] = chain.key;
            leaf.chains[pos] = chain;
        }
        Arrays.fill(leaf.keys, leftCount, LEAF_CAPACITY, null);
        Arrays.fill(leaf.chains, leftCount, LEAF_CAPACITY, null);
        leaf.size = leftCount;
        refresh(leaf, leaf.keys, leftCount); // each half's keys share at least as much as the whole's
        refresh(right, right.keys, r);

        byte[] separator = right.keys[0];
        Node newChild = right;
        for (int d = depth - 1; d >= 0 && newChild != null; d--) {
            Inner parent = pathNodes[d];
            int slot = pathSlots[d];
            if (parent.size < INNER_CAPACITY) {
                insertChild(parent, slot, separator, newChild);
                newChild = null;
            } else {
                Inner sibling = new Inner();
                separator = splitInner(parent, slot, separator, newChild, sibling);
                newChild = sibling;
            }
        }
        if (newChild != null) {
            Inner grown = new Inner();
            grown.children[0] = oldRoot;
            grown.children[1] = newChild;
            grown.keys[0] = separator;
            refresh(grown, grown.keys, 1);
            grown.size = 2;
            root = grown; // before the old root turns even: see the class comment
        }

        unlock(leaf);
        for (int d = depth - 1; d >= from; d--) {
            unlock(pathNodes[d]);
        }
    }

    /** Inserts {@code child} right after child {@code slot} of a non-full {@code parent}, which is locked. */
    private static void insertChild(Inner parent, int slot, byte[] separator, Node child) {
        int n = parent.size;
        reskip(parent, parent.keys, n - 1, skipWith(parent, parent.keys, n - 1, separator));
        System.arraycopy(parent.children, slot + 1, parent.children, slot + 2, n - slot - 1);
        System.arraycopy(parent.keys, slot, parent.keys, slot + 1, n - 1 - slot);
        System.arraycopy(parent.windows, slot, parent.windows, slot + 1, n - 1 - slot);
        parent.children[slot + 1] = child;
        parent.keys[slot] = separator;
        parent.windows[slot] = ByteKeys.window(separator, parent.skip);
        parent.size = n + 1;
    }

    /**
     * Splits the full, locked {@code parent} while inserting {@code child} after child
     * {@code slot}; the upper part goes to the fresh {@code sibling}.
     *
     * @return the separator between {@code parent} and {@code sibling}
     */
    private static byte[] splitInner(Inner parent, int slot, byte[] separator, Node child, Inner sibling) {
        int n = INNER_CAPACITY;
        Node[] children = new Node[n + 1];
        byte[][] keys = new byte[n][];
        for (int i = 0, j = 0; i <= n; i++) {
            children[i] = i == slot + 1 ? child : parent.children[j++];
        }
        for (int i = 0, j = 0; i < n; i++) {
            keys[i] = i == slot ? separator : parent.keys[j++];
        }
        int left = (n + 1) / 2;
        System.arraycopy(children, left, sibling.children, 0, n + 1 - left);
        System.arraycopy(keys, left, sibling.keys, 0, n - left);
        refresh(sibling, sibling.keys, n - left);
        sibling.size = n + 1 - left;
        System.arraycopy(children, 0, parent.children, 0, left);
        System.arraycopy(keys, 0, parent.keys, 0, left - 1);
        refresh(parent, parent.keys, left - 1);
        Arrays.fill(parent.children, left, n, null);
        Arrays.fill(parent.keys, left - 1, n - 1, null);
        parent.size = left;
        return keys[left - 1];
    }

    /**
     * Unlinks the empty child at {@code pathSlots[d]} of {@code pathNodes[d]}, and every
     * ancestor left without children. As in a split, every node that changes is made odd,
     * top-down, before any changes: an inner node emptied here must never be seen with an
     * even stamp while its parent still links it.
     */
    private void unlinkEmpty(int d) {
        int top = d;
        while (top >= 0 && pathNodes[top].size == 1) {
            top--; // this node loses its only child: it goes too
        }
        int from = Math.max(top, 0);
        for (int level = from; level <= d; level++) {
            lock(pathNodes[level]);
        }
        if (top < 0) {
            root = new Leaf(); // the whole tree emptied; published before the old root turns even
        } else {
            Inner parent = pathNodes[top];
            int slot = pathSlots[top];
            int n = parent.size;
            System.arraycopy(parent.children, slot + 1, parent.children, slot, n - slot - 1);
            parent.children[n - 1] = null;
            // The child's range joins its left neighbour's (or, for the first, the next one's).
            int gone = slot > 0 ? slot - 1 : 0;
            System.arraycopy(parent.keys, gone + 1, parent.keys, gone, n - 2 - gone);
            System.arraycopy(parent.windows, gone + 1, parent.windows, gone, n - 2 - gone); // the rest still share the skip
            parent.keys[n - 2] = null;
            parent.size = n - 1;
        }
        for (int level = Math.max(top + 1, 0); level <= d; level++) {
            Inner gone = pathNodes[level]; // unlinked: readers inside it fail validation and restart
            gone.children[0] = null;
            gone.size = 0;
        }
        for (int level = d; level >= from; level--) {
            unlock(pathNodes[level]);
        }
    }

    private static void shiftRight(byte[][] keys, VersionChain[] chains, int from, int size) {
        System.arraycopy(keys, from, keys, from + 1, size - from);
        System.arraycopy(chains, from, chains, from + 1, size - from);
    }

    /**
     * The skip of {@code node}'s {@code n} keys once {@code key} joins them: a lone key shares
     * all of itself; otherwise the common prefix with the first key, within the current skip.
     * Writer only (it sees its own writes whole).
     */
    private static int skipWith(Node node, byte[][] keys, int n, byte[] key) {
        if (n == 0) {
            return key.length;
        }
        byte[] first = keys[0];
        int limit = Math.min(node.skip, Math.min(key.length, first.length));
        int m = Arrays.mismatch(key, 0, limit, first, 0, limit);
        return m < 0 ? limit : m;
    }

    /** Sets a locked node's skip, recomputing its {@code n} keys' windows if it changes (it only shrinks while keys are added). */
    private static void reskip(Node node, byte[][] keys, int n, int skip) {
        if (skip != node.skip) {
            for (int i = 0; i < n; i++) {
                node.windows[i] = ByteKeys.window(keys[i], skip);
            }
            node.skip = skip;
        }
    }

    /** Recomputes the skip and windows of a locked or unpublished node from its {@code n} sorted keys: what the first and last share. */
    private static void refresh(Node node, byte[][] keys, int n) {
        int skip = 0;
        if (n > 0) {
            byte[] first = keys[0];
            byte[] last = keys[n - 1];
            int m = Arrays.mismatch(first, last);
            skip = m < 0 ? first.length : m;
        }
        node.skip = -1; // forces reskip to refill every window
        reskip(node, keys, n, skip);
    }

    /*
     * Neither stamp write is a volatile write: on x86 that is a locked instruction, which
     * waits for every store before it to reach the cache — with an insert's stores to new
     * objects and to a hash-table slot that missed, a stall on each of the writer's two
     * stamp writes per insert. Ordering is all a seqlock needs: the odd stamp before the
     * changes (a store-store fence), the changes before the even stamp (a release write).
     */
    private static void lock(Node n) {
        STAMP.setOpaque(n, n.stamp + 1);
        VarHandle.storeStoreFence(); // the odd stamp is seen before any change
    }

    private static void unlock(Node n) {
        STAMP.setRelease(n, n.stamp + 1); // publishes the changes with the even stamp
    }

    // ------------------------------------------------------------------ readers

    /**
     * The chain of {@code key}, or null. Any thread; for tests and checks (the store reads
     * points through its hash index): a validated copy of the one entry at or after the key.
     */
    VersionChain get(byte[] key) {
        Snapshot s = new Snapshot(1);
        s.fill(this, key, true, null, false);
        return s.count > 0 && Arrays.equals(s.keys[0], key) ? s.chains[0] : null;
    }

    /** Chains with keys in {@code [begin, end)}, ascending. Any thread; see the class comment. */
    Iterator<VersionChain> ascending(byte[] begin, byte[] end) {
        return new Cursor(this, begin, end, false);
    }

    /** Chains with keys in {@code [begin, end)}, descending. Any thread. */
    Iterator<VersionChain> descending(byte[] begin, byte[] end) {
        return new Cursor(this, begin, end, true);
    }

    /**
     * One leaf's entries past a bound, copied under validation, and the fence to continue
     * from. Ascending: keys {@code >= from} (or {@code > from}) and {@code < limit}; the fence
     * is the separator above the leaf. Descending: keys {@code < from} (or {@code <= from}) and
     * {@code >= limit}; the fence is the separator the leaf starts at. At most as many
     * entries as it was made for: a copy that fills it before the leaf's end or the limit is
     * {@link #truncated}, and the walk goes on from its last key.
     */
    private static final class Snapshot {
        final byte[][] keys;
        final VersionChain[] chains;
        int count;
        /** Where the next leaf starts (ascending) or this one starts (descending); null at the tree's end. */
        byte[] fence;
        /** Whether the copy stopped at the limit rather than at the leaf's end. */
        boolean reachedLimit;
        /** Whether the copy stopped because it was full, with entries of the leaf left before the limit. */
        boolean truncated;

        Snapshot(int capacity) {
            this.keys = new byte[capacity][];
            this.chains = new VersionChain[capacity];
        }

        void fill(SortedIndex tree, byte[] from, boolean inclusive, byte[] limit, boolean descending) {
            restart:
            while (true) {
                Node n = tree.root;
                long v = n.stamp;
                if ((v & 1) != 0 || tree.root != n) {
                    Thread.onSpinWait();
                    continue;
                }
                byte[] fenceSoFar = null;
                while (n instanceof Inner) {
                    Inner in = (Inner) n;
                    int size = Math.min(in.size, INNER_CAPACITY);
                    int slot = search(in.keys, in.windows, size - 1, in.skip, from, !(descending && !inclusive));
                    if (slot < 0 || size == 0) {
                        if (!valid(in, v)) {
                            continue restart;
                        }
                        throw new IllegalStateException("inconsistent index node");
                    }
                    Node child = in.children[slot];
                    byte[] fence = descending ? (slot > 0 ? in.keys[slot - 1] : fenceSoFar)
                                              : (slot < size - 1 ? in.keys[slot] : fenceSoFar);
                    if (child == null || !valid(in, v)) {
                        continue restart;
                    }
                    long cv = child.stamp;
                    if ((cv & 1) != 0 || !valid(in, v)) {
                        continue restart;
                    }
                    fenceSoFar = fence;
                    n = child;
                    v = cv;
                }
                Leaf leaf = (Leaf) n;
                if (!copy(leaf, from, inclusive, limit, descending) || !valid(leaf, v)) {
                    continue;
                }
                fence = fenceSoFar;
                return;
            }
        }

        /** Copies the qualifying entries of {@code leaf}; false when a torn read was seen. */
        private boolean copy(Leaf leaf, byte[] from, boolean inclusive, byte[] limit, boolean descending) {
            int size = Math.min(leaf.size, LEAF_CAPACITY);
            count = 0;
            reachedLimit = false;
            truncated = false;
            int capacity = keys.length;
            if (!descending) {
                int i = search(leaf.keys, leaf.windows, size, leaf.skip, from, !inclusive);
                if (i < 0) {
                    return false;
                }
                for (; i < size; i++) {
                    byte[] k = leaf.keys[i];
                    VersionChain c = leaf.chains[i];
                    if (k == null || c == null) {
                        return false;
                    }
                    if (limit != null && Arrays.compareUnsigned(k, limit) >= 0) {
                        reachedLimit = true;
                        break;
                    }
                    if (count == capacity) {
                        truncated = true;
                        break;
                    }
                    keys[count] = k;
                    chains[count++] = c;
                }
            } else {
                int i = search(leaf.keys, leaf.windows, size, leaf.skip, from, inclusive) - 1;
                if (i < -1) {
                    return false;
                }
                for (; i >= 0; i--) {
                    byte[] k = leaf.keys[i];
                    VersionChain c = leaf.chains[i];
                    if (k == null || c == null) {
                        return false;
                    }
                    if (limit != null && Arrays.compareUnsigned(k, limit) < 0) {
                        reachedLimit = true;
                        break;
                    }
                    if (count == capacity) {
                        truncated = true;
                        break;
                    }
                    keys[count] = k;
                    chains[count++] = c;
                }
            }
            return true;
        }

        private static boolean valid(Node n, long v) {
            VarHandle.loadLoadFence(); // the plain reads above happen before the re-check
            return n.stamp == v;
        }
    }

    /**
     * Iterates by copying a leaf at a time, continuing from each leaf's fence. The first copy
     * takes only {@link #FIRST_COPY} entries: most reads through a cursor want a row or two (a
     * limit of 1, a key selector, a predecessor), and copying the rest of a leaf they will
     * not look at was a tenth of such a read; a walk that goes on copies whole leaves.
     */
    private static final class Cursor implements Iterator<VersionChain> {
        static final int FIRST_COPY = 4;
        private final SortedIndex tree;
        private final byte[] limit;
        private final boolean descending;
        private Snapshot snapshot = new Snapshot(FIRST_COPY);
        private int at;
        /** Where the next copy starts, or null when done. */
        private byte[] next;
        private boolean nextInclusive;

        Cursor(SortedIndex tree, byte[] begin, byte[] end, boolean descending) {
            this.tree = tree;
            this.descending = descending;
            this.limit = descending ? begin : end;
            this.next = descending ? end : begin;
            this.nextInclusive = !descending;
        }

        @Override
        public boolean hasNext() {
            while (at == snapshot.count) {
                if (next == null) {
                    return false;
                }
                if (at > 0 && snapshot.keys.length < LEAF_CAPACITY) {
                    snapshot = new Snapshot(LEAF_CAPACITY);
                }
                snapshot.fill(tree, next, nextInclusive, limit, descending);
                at = 0;
                byte[] fence = snapshot.fence;
                if (snapshot.truncated) {
                    // The leaf goes on past the copy: continue after its last key, as after a fence.
                    next = snapshot.keys[snapshot.count - 1];
                    nextInclusive = false;
                } else if (snapshot.reachedLimit || fence == null
                        || (descending ? Arrays.compareUnsigned(fence, limit) <= 0 : Arrays.compareUnsigned(fence, limit) >= 0)) {
                    next = null;
                } else {
                    // The copy covered the leaf to its fence; keys inserted there since are too new to matter.
                    next = fence;
                    nextInclusive = !descending;
                }
            }
            return true;
        }

        @Override
        public VersionChain next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return snapshot.chains[at++];
        }
    }

    // ------------------------------------------------------------------ searches

    /**
     * Where {@code key} falls among a node's keys {@code keys[0..n)}, which share their first
     * {@code skip} bytes and whose {@code windows} hold their next eight: the first index whose
     * key is {@code >= key} ({@code upper} false), or {@code > key} ({@code upper} true: the
     * number of keys {@code <= key}). The key is compared once with the first key over the
     * shared bytes — a key that differs there is before or after them all — then by windows,
     * loading a key's array only where windows tie.
     *
     * <p>Readers pass torn contents (all of {@code n}, {@code skip}, the windows and the keys
     * may be from different moments): the answer is then meaningless but the search neither
     * throws nor loops, and the node's stamp tells the reader to restart; a missing key gives
     * -1. The writer sees its own writes whole.
     */
    private static int search(byte[][] keys, long[] windows, int n, int skip, byte[] key, boolean upper) {
        int hi = Math.max(Math.min(n, windows.length), 0);
        if (hi == 0) {
            return 0;
        }
        if (skip > 0) {
            byte[] first = keys[0];
            if (first == null) {
                return -1;
            }
            int c = Arrays.compareUnsigned(key, 0, Math.min(skip, key.length), first, 0, Math.min(skip, first.length));
            if (c != 0) {
                return c < 0 ? 0 : hi; // a key shorter than the shared bytes, and equal as far as it goes, is before them all
            }
        }
        long w = ByteKeys.window(key, skip);
        int lo = 0;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(windows[mid], w);
            if (c == 0) {
                byte[] k = keys[mid];
                if (k == null) {
                    return -1;
                }
                c = compareAfterWindow(k, key, skip);
            }
            if (upper ? c <= 0 : c < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Compares two keys whose windows at {@code skip} tie, and which share their first
     * {@code skip} bytes: from just past the window when both reach past it (the bytes before
     * are equal), else whole (a tie that zero padding made).
     */
    private static int compareAfterWindow(byte[] k, byte[] key, int skip) {
        int from = skip + Long.BYTES;
        if (skip >= 0 && k.length >= from && key.length >= from) {
            return Arrays.compareUnsigned(k, from, k.length, key, from, key.length);
        }
        return Arrays.compareUnsigned(k, key);
    }
}
