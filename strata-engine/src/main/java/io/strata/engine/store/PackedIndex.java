package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * {@link PackedStore}'s hash index for point reads: for every key, the leaf that holds it, so
 * a read is a probe and a search of one leaf instead of a descent of the tree (what keeps the
 * memory engine's point reads as fast as when every key had a chain in a hash table).
 *
 * <h2>Layout</h2>
 * Keys map to leaf <em>ids</em>, and a table of leaves maps ids to the current leaf. A leaf
 * rebuilt by a write keeps its id ({@link PackedLeaf#id}), so a write that changes a value
 * replaces one entry of the table and touches no key's entry; only keys that enter the
 * store, leave it, or move to another leaf (a split, a merge) change theirs. The key entries
 * are two {@code int}s — the key's {@link ByteKeys#hash} (0: an empty slot) and the leaf id
 * ({@link #GONE} once deleted; the slot stays taken so that later keys' probes go on past it)
 * — with open addressing and linear probing, rebuilt (larger, or the same size without the
 * deleted slots) at three quarters full, smaller when fewer than a sixteenth hold keys: 11 to
 * 21 bytes a key, and no references for the garbage collector to track.
 *
 * <h2>Concurrency</h2>
 * One writer ({@link PackedStore}'s), any number of readers, no locks. Every slot and table
 * entry is written with release and read with acquire. A reader searches the leaf it reaches
 * for its key itself, so a slot being reused or a leaf id being reused never answers for
 * another key, and a leaf it finds the key in is the key's current leaf or the one the batch
 * being written replaces — what a read racing with that batch may see
 * ({@link VersionedStore}'s "Over a disk store" argues why no reader that comes here needs that
 * batch). The writer moves a key only in this order: the new leaf enters the table; the key's
 * slot takes the new id; the old leaf is replaced or its id freed. So a reader that misses its
 * key in the leaf of the id it read re-reads the slot: if the id changed, the key moved, and
 * the new id's leaf (entered before the slot changed) has it. A key's slot precedes every slot
 * that was empty when it was inserted, and slots never become empty again, so a probe that
 * stops at an empty slot passed the key's slot if there is one. Rebuilt tables are published
 * whole by volatile writes; a reader that found nothing checks that the key table it probed is
 * still the current one, and else looks again.
 */
final class PackedIndex {
    static final int GONE = -1;
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle OBJECTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final int MIN_CAPACITY = 64;

    private static final class Keys {
        final int[] hashes;
        final int[] ids;
        final int mask;

        Keys(int capacity) {
            hashes = new int[capacity];
            ids = new int[capacity];
            mask = capacity - 1;
        }
    }

    private volatile Keys keys = new Keys(MIN_CAPACITY);
    /** The current leaf of each id; null for an unused id. */
    private volatile Object[] leaves = new Object[64];
    /** Writer only: ids freed, to reuse; keys held; slots taken (keys and deleted ones); ids in use. */
    private int[] freeIds = new int[16];
    private int freeCount;
    private int nextId;
    private int live;
    private int taken;

    /** A hash that is never 0, the mark of an empty slot. */
    private static int slotHash(int hash) {
        return hash == 0 ? 0x9E3779B9 : hash;
    }

    /** The value of {@code key}, whose {@link ByteKeys#hash} is {@code hash}, or null. Any thread. */
    byte[] get(byte[] key, int hash) {
        int h = slotHash(hash);
        while (true) {
            Keys t = keys;
            for (int i = h & t.mask; ; i = (i + 1) & t.mask) {
                int found = (int) INTS.getAcquire(t.hashes, i);
                if (found == 0) {
                    break;
                }
                if (found != h) {
                    continue;
                }
                for (int id = (int) INTS.getAcquire(t.ids, i); id != GONE; ) {
                    Object[] table = leaves;
                    if (id < table.length && OBJECTS.getAcquire(table, id) instanceof byte[] leaf) {
                        int j = PackedLeaf.find(leaf, key);
                        if (j >= 0) {
                            return PackedLeaf.value(leaf, j);
                        }
                    }
                    int again = (int) INTS.getAcquire(t.ids, i);
                    if (again == id) {
                        break; // another key's slot, or this key's and it is not there
                    }
                    id = again; // the key moved to another leaf meanwhile
                }
            }
            if (keys == t) {
                return null;
            }
        }
    }

    /** A new leaf id, not in use. Writer only. */
    int newId() {
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        Object[] table = leaves;
        if (id >= table.length) {
            leaves = Arrays.copyOf(table, table.length * 2);
        }
        return id;
    }

    /** Makes {@code leaf} the current leaf of its id. Writer only. */
    void publish(byte[] leaf) {
        OBJECTS.setRelease(leaves, PackedLeaf.id(leaf), leaf);
    }

    /** Frees {@code id}: no key's entry names it any more. Writer only. */
    void free(int id) {
        OBJECTS.setRelease(leaves, id, null);
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, freeCount * 2);
        }
        freeIds[freeCount++] = id;
        if (freeCount == nextId) {
            // No leaf left: give back the tables a large store grew.
            leaves = new Object[64];
            freeIds = new int[16];
            freeCount = 0;
            nextId = 0;
        }
    }

    /** The current leaf of {@code id}, for the writer. */
    byte[] leaf(int id) {
        return (byte[]) leaves[id];
    }

    /**
     * Records that the key of entry {@code j} of {@code leaf} is in that leaf's id, where the
     * index had it in {@code from} ({@link PackedLeaf#NO_ID}: it had it nowhere). Writer only;
     * the leaf is already published.
     */
    void place(byte[] leaf, int j, int from) {
        int to = PackedLeaf.id(leaf);
        int kf = PackedLeaf.keyStart(leaf, j);
        int kt = kf + PackedLeaf.keyLength(leaf, j);
        int h = slotHash(ByteKeys.hash(leaf, kf, kt));
        Keys t = keys;
        if (from != PackedLeaf.NO_ID) {
            int i = slotOf(t, h, from, leaf, kf, kt);
            INTS.setRelease(t.ids, i, to);
            return;
        }
        int reuse = -1;
        for (int i = h & t.mask; ; i = (i + 1) & t.mask) {
            int found = t.hashes[i];
            if (found == 0) {
                if (reuse >= 0) {
                    i = reuse;
                } else {
                    taken++;
                }
                INTS.setRelease(t.ids, i, to);
                INTS.setRelease(t.hashes, i, h);
                live++;
                if (taken > t.hashes.length / 4 * 3) {
                    rebuild();
                }
                return;
            }
            if (reuse < 0 && t.ids[i] == GONE) {
                reuse = i;
            }
        }
    }

    /** Forgets the key of entry {@code j} of {@code leaf}, which the index has in that leaf's id. Writer only. */
    void remove(byte[] leaf, int j) {
        int kf = PackedLeaf.keyStart(leaf, j);
        int kt = kf + PackedLeaf.keyLength(leaf, j);
        int h = slotHash(ByteKeys.hash(leaf, kf, kt));
        Keys t = keys;
        int i = slotOf(t, h, PackedLeaf.id(leaf), leaf, kf, kt);
        INTS.setRelease(t.ids, i, GONE);
        live--;
        if (live < t.hashes.length / 16 && t.hashes.length > MIN_CAPACITY) {
            rebuild(); // give back what a cleared store no longer needs
        }
    }

    /** The slot of the key {@code bytes[kf, kt)}, with hash {@code h}, which the index has in leaf {@code id}. */
    private int slotOf(Keys t, int h, int id, byte[] bytes, int kf, int kt) {
        for (int i = h & t.mask; ; i = (i + 1) & t.mask) {
            int found = t.hashes[i];
            if (found == 0) {
                throw new IllegalStateException("a key the packed store holds is not in its index");
            }
            if (found == h && t.ids[i] == id && PackedLeaf.find(leaf(id), bytes, kf, kt) >= 0) {
                return i;
            }
        }
    }

    /** A new key table at most half full, without the deleted slots, published whole. */
    private void rebuild() {
        Keys old = keys;
        int capacity = MIN_CAPACITY;
        while (capacity / 2 < live) {
            capacity *= 2; // at most half full after a rebuild, so at most three quarters before the next
        }
        Keys t = new Keys(capacity);
        for (int i = 0; i < old.hashes.length; i++) {
            if (old.hashes[i] != 0 && old.ids[i] != GONE) {
                int j = old.hashes[i] & t.mask;
                while (t.hashes[j] != 0) {
                    j = (j + 1) & t.mask;
                }
                t.hashes[j] = old.hashes[i];
                t.ids[j] = old.ids[i];
            }
        }
        taken = live;
        keys = t;
    }

    /** Forgets every key and leaf. Writer only. */
    void clear() {
        keys = new Keys(MIN_CAPACITY);
        leaves = new Object[64];
        freeCount = 0;
        nextId = 0;
        live = 0;
        taken = 0;
    }

    /** What the index takes on the heap: the key table and the table of leaves (not the leaves). */
    long heapBytes() {
        Keys t = keys;
        return 2 * ((16L + 4L * t.hashes.length + 7) & ~7L) + ((16L + 4L * leaves.length + 7) & ~7L)
                + ((16L + 4L * freeIds.length + 7) & ~7L);
    }

    /** Keys held. Writer only. */
    int size() {
        return live;
    }

    /** Ids in use. Writer only. */
    int leafCount() {
        return nextId - freeCount;
    }
}
