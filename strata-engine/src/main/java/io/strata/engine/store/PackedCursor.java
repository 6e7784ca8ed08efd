package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A walk over one published {@link PackedStore} tree, in either direction: a stack of the inner nodes above the
 * current leaf and the child taken in each. Not thread-safe.
 */
final class PackedCursor implements DiskStore.Cursor {
    private final byte[] lo;
    private final byte[] hi;
    private final boolean reverse;
    private final PackedStore.Inner[] path;
    private final int[] taken;
    private byte[] leaf;
    private int index;
    private Map.Entry<byte[], byte[]> next;
    private boolean done;

    PackedCursor(PackedStore.Snapshot s, byte[] lo, byte[] hi, boolean reverse) {
        this.lo = lo;
        this.hi = hi;
        this.reverse = reverse;
        this.path = new PackedStore.Inner[s.height()];
        this.taken = new int[s.height()];
        if (s.root() == null || ByteKeys.compare(lo, hi) >= 0) {
            done = true;
            return;
        }
        byte[] seek = reverse ? hi : lo;
        Object node = s.root();
        for (int d = 0; d < s.height(); d++) {
            PackedStore.Inner in = (PackedStore.Inner) node;
            path[d] = in;
            taken[d] = in.childFor(seek);
            node = in.children[taken[d]];
        }
        leaf = (byte[]) node;
        index = PackedLeaf.ceiling(leaf, seek) - (reverse ? 1 : 0);
    }

    @Override
    public boolean hasNext() {
        while (next == null && !done) {
            if (index < 0 || index >= PackedLeaf.count(leaf)) {
                if (!step()) {
                    done = true;
                }
                continue;
            }
            boolean inside = reverse ? PackedLeaf.compare(leaf, index, lo) >= 0 : PackedLeaf.compare(leaf, index, hi) < 0;
            if (!inside) {
                done = true;
                break;
            }
            next = Map.entry(PackedLeaf.key(leaf, index), PackedLeaf.value(leaf, index));
            index += reverse ? -1 : 1;
        }
        return next != null;
    }

    /** Moves to the next leaf in the walk's direction; false at the end of the tree. */
    private boolean step() {
        int d = path.length - 1;
        while (d >= 0 && (reverse ? taken[d] == 0 : taken[d] == path[d].children.length - 1)) {
            d--;
        }
        if (d < 0) {
            return false;
        }
        taken[d] += reverse ? -1 : 1;
        Object node = path[d].children[taken[d]];
        for (d++; d < path.length; d++) {
            PackedStore.Inner in = (PackedStore.Inner) node;
            path[d] = in;
            taken[d] = reverse ? in.children.length - 1 : 0;
            node = in.children[taken[d]];
        }
        leaf = (byte[]) node;
        index = reverse ? PackedLeaf.count(leaf) - 1 : 0;
        return true;
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Map.Entry<byte[], byte[]> result = next;
        next = null;
        return result;
    }

    @Override
    public void close() {
        done = true;
        next = null;
    }
}
