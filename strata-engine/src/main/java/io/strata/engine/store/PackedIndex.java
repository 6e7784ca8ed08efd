package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * {@link PackedStore}'s hash index for point reads: for every key, the leaf that holds it, so
 * a read is a probe and a search of one leaf instead of a descent of the tree (what kept the
 * memory engine's point reads as fast as when every key had a chain in a hash table).
 *
 * <p>Open addressing with linear probing over two parallel arrays: each key's
 * {@link ByteKeys#hash} (0: an empty slot) and its leaf ({@link #GONE} once the key was
 * deleted; the slot stays taken so that later keys' probes go on past it). A slot is never
 * emptied, only reused by a key inserted later, and the table is rebuilt (larger, or the same
 * size without the deleted slots) when three quarters of its slots are taken, smaller when
 * fewer than a sixteenth hold keys. About 14 bytes a key.
 *
 * <p>Concurrency: one writer ({@link PackedStore}'s), any number of readers, no locks. A
 * leaf is published with a release store after it was built, and read with an acquire load,
 * so a reader sees it whole. A reader that finds a slot of its hash searches the slot's leaf
 * for its key itself, so a slot being reused, or pointing at an older leaf, never gives a
 * wrong key's value: at worst a leaf older than the newest batch, which is what a read racing
 * with that batch may see ({@link VersionedStore}'s "Over a disk store" argues why no reader
 * that comes here needs that batch). A key's slot precedes every slot that was empty when it
 * was inserted, and slots never become empty again, so a probe that stops at an empty slot
 * has passed the key's slot if there is one. A rebuilt table is published whole, by a
 * volatile write.
 */
final class PackedIndex {
    private static final Object GONE = new Object();
    private static final VarHandle HASHES = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle LEAVES = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final int MIN_CAPACITY = 64;

    private static final class Table {
        final int[] hashes;
        final Object[] leaves;
        final int mask;

        Table(int capacity) {
            hashes = new int[capacity];
            leaves = new Object[capacity];
            mask = capacity - 1;
        }

        long heapBytes() {
            return 2 * ((16L + 4L * hashes.length + 7) & ~7L);
        }
    }

    private volatile Table table = new Table(MIN_CAPACITY);
    /** Writer only: keys held, and slots taken (keys and deleted ones). */
    private int live;
    private int taken;

    /** A hash that is never 0, the mark of an empty slot. */
    private static int slotHash(int hash) {
        return hash == 0 ? 0x9E3779B9 : hash;
    }

    /** The value of {@code key}, whose {@link ByteKeys#hash} is {@code hash}, or null. Any thread. */
    byte[] get(byte[] key, int hash) {
        Table t = table;
        int h = slotHash(hash);
        for (int i = h & t.mask; ; i = (i + 1) & t.mask) {
            int found = (int) HASHES.getAcquire(t.hashes, i);
            if (found == 0) {
                return null;
            }
            if (found == h && LEAVES.getAcquire(t.leaves, i) instanceof byte[] leaf) {
                int j = PackedLeaf.find(leaf, key);
                if (j >= 0) {
                    return PackedLeaf.value(leaf, j);
                }
            }
        }
    }

    /** Records that entry {@code j} of {@code leaf} is where its key now lives. Writer only. */
    void put(byte[] leaf, int j) {
        int from = PackedLeaf.keyStart(leaf, j);
        int to = from + PackedLeaf.keyLength(leaf, j);
        int h = slotHash(ByteKeys.hash(leaf, from, to));
        Table t = table;
        int reuse = -1;
        for (int i = h & t.mask; ; i = (i + 1) & t.mask) {
            int found = t.hashes[i];
            if (found == 0) {
                if (reuse >= 0) {
                    i = reuse;
                } else {
                    taken++;
                }
                LEAVES.setRelease(t.leaves, i, leaf);
                HASHES.setRelease(t.hashes, i, h);
                live++;
                if (taken > t.hashes.length / 4 * 3) {
                    rebuild();
                }
                return;
            }
            Object o = t.leaves[i];
            if (o == GONE) {
                if (reuse < 0) {
                    reuse = i;
                }
            } else if (found == h && PackedLeaf.find((byte[]) o, leaf, from, to) >= 0) {
                LEAVES.setRelease(t.leaves, i, leaf);
                return;
            }
        }
    }

    /** Forgets the key of entry {@code j} of {@code leaf}, which the index holds. Writer only. */
    void remove(byte[] leaf, int j) {
        int from = PackedLeaf.keyStart(leaf, j);
        int to = from + PackedLeaf.keyLength(leaf, j);
        int h = slotHash(ByteKeys.hash(leaf, from, to));
        Table t = table;
        for (int i = h & t.mask; ; i = (i + 1) & t.mask) {
            int found = t.hashes[i];
            if (found == 0) {
                throw new IllegalStateException("a key the packed store holds is not in its index");
            }
            Object o = t.leaves[i];
            if (found == h && o != GONE && PackedLeaf.find((byte[]) o, leaf, from, to) >= 0) {
                LEAVES.setRelease(t.leaves, i, GONE);
                live--;
                if (live < t.hashes.length / 16 && t.hashes.length > MIN_CAPACITY) {
                    rebuild(); // give back what a cleared store no longer needs
                }
                return;
            }
        }
    }

    /** A new table with room for twice the keys held, without the deleted slots, published whole. */
    private void rebuild() {
        Table old = table;
        int capacity = MIN_CAPACITY;
        while (capacity / 4 * 3 < live * 2) {
            capacity *= 2;
        }
        Table t = new Table(capacity);
        for (int i = 0; i < old.hashes.length; i++) {
            Object o = old.leaves[i];
            if (old.hashes[i] != 0 && o != GONE) {
                int j = old.hashes[i] & t.mask;
                while (t.hashes[j] != 0) {
                    j = (j + 1) & t.mask;
                }
                t.hashes[j] = old.hashes[i];
                t.leaves[j] = o;
            }
        }
        taken = live;
        table = t;
    }

    /** Forgets every key. Writer only. */
    void clear() {
        table = new Table(MIN_CAPACITY);
        live = 0;
        taken = 0;
    }

    /** What the index takes on the heap. */
    long heapBytes() {
        return table.heapBytes();
    }

    /** Keys held. Writer only. */
    int size() {
        return live;
    }
}
