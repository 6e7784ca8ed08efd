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
 * store, leave it, or move to another leaf (a split, a merge) change theirs.
 *
 * <p>A key's entry is one {@code int}: the leaf id plus one in its low {@code idBits}, and in
 * the bits above them a tag, the same bits of the key's {@link ByteKeys#hash} multiplied by
 * an odd constant (so they depend on all of the hash, not on the bits that chose the slot).
 * 0 is an empty slot; {@link #GONE} a deleted one, which stays taken so that later keys'
 * probes go on past it. Open addressing, linear probing. A probe searches a leaf only where
 * the tag matches. {@code idBits} grows with the store, since ids must name every leaf a write
 * may leave behind ({@link #reserve}): 21 at 1 M keys, which leaves an 11-bit tag, so a probe
 * searches a leaf it need not about once in 2,000 slots it passes. 5 to 11 bytes a key, no references
 * for the garbage collector to track, and a probe reads one array.
 *
 * <p>A table's size and {@code idBits} change only between the store's writes
 * ({@link #reserve}, {@link #settle}), never during one: the new table is built from the
 * leaves, rehashing each key, and then every key is in exactly one leaf of the table.
 *
 * <h2>Concurrency</h2>
 * One writer ({@link PackedStore}'s), any number of readers, no locks. Every slot and table
 * entry is written with release and read with acquire; a slot changes as one {@code int}, its
 * tag and id together. A reader searches the leaf it reaches for its key itself, so a slot
 * being reused or a leaf id being reused never answers for another key, and a leaf it finds
 * the key in is the key's current leaf or the one the batch being written replaces — what a
 * read racing with that batch may see ({@link VersionedStore}'s "Over a disk store" argues why
 * no reader that comes here needs that batch). The writer moves a key only in this order: the
 * new leaf enters the table; the key's slot takes the new id; the old leaf is replaced or its
 * id freed; and every leaf it publishes is a new array. So a reader that misses its key in
 * the leaf of the id it read re-reads the slot and then that id's leaf: if the slot still names
 * the id and the id still the very leaf it searched, then at the moment of the re-read the
 * slot named that leaf, and were it the key's slot the leaf would hold the key. Otherwise it
 * looks again. (Comparing the slot alone is not enough: within one write a key can leave a
 * leaf, by a split, and come back into its id, by a merge after a range clear, and a reader
 * that searched the leaf in between would see the slot unchanged.) Two keys of one leaf with
 * the same tag have equal entries, and the writer may move either one's; that is harmless,
 * since both slots lie in the one run of taken slots that both keys' probes cross. A key's slot precedes every slot that was empty when it was inserted,
 * and slots never become empty again, so a probe that stops at an empty slot passed the key's
 * slot if there is one. Rebuilt tables are published whole by volatile writes; a reader that
 * found nothing checks that the key table it probed is still the current one, and else looks
 * again.
 */
final class PackedIndex {
    /** A deleted slot: every bit set, which no entry is (an entry's id bits are never all set). */
    static final int GONE = -1;
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle OBJECTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final int MIN_CAPACITY = 64;
    private static final int MIN_ID_BITS = 10;
    /** Beyond this the tag would be too short to spare most leaf searches: 2^30 leaves is some 2 TiB of pairs. */
    private static final int MAX_ID_BITS = 30;
    /** Multiplies a key's hash for its tag (the golden ratio's odd 32-bit constant). */
    private static final int TAG_MIX = 0x9E3779B9;

    /** A key table: the slots, and how their entries split into tag and id. */
    private static final class Keys {
        final int[] slots;
        final int mask;
        final int idBits;
        /** The tag's bits of an entry. */
        final int tagMask;
        /** The largest id an entry can hold. */
        final int maxId;

        Keys(int capacity, int idBits) {
            slots = new int[capacity];
            mask = capacity - 1;
            this.idBits = idBits;
            tagMask = -1 << idBits;
            maxId = (1 << idBits) - 3; // id + 1 never has every id bit set
        }

        int tag(int hash) {
            return (hash * TAG_MIX) & tagMask;
        }

        int entry(int hash, int id) {
            return tag(hash) | (id + 1);
        }

        int id(int entry) {
            return (entry & ~tagMask) - 1;
        }
    }

    /** The fewest id bits a table has: {@link #MIN_ID_BITS}, or more in tests, for short tags that collide often. */
    private final int minIdBits;
    private volatile Keys keys;
    /** The current leaf of each id; null for an unused id. */
    private volatile Object[] leaves = new Object[64];
    /** Writer only: ids freed, to reuse; keys held; slots taken (keys and deleted ones); ids in use. */
    private int[] freeIds = new int[16];
    private int freeCount;
    private int nextId;
    private int live;
    private int taken;

    PackedIndex() {
        this(MIN_ID_BITS);
    }

    /** Tests: an index whose tables take at least {@code minIdBits} id bits, leaving {@code 32 - minIdBits} for the tag. */
    PackedIndex(int minIdBits) {
        if (minIdBits < MIN_ID_BITS || minIdBits > MAX_ID_BITS) {
            throw new IllegalArgumentException("id bits " + minIdBits + " outside [" + MIN_ID_BITS + ", " + MAX_ID_BITS + "]");
        }
        this.minIdBits = minIdBits;
        this.keys = new Keys(MIN_CAPACITY, minIdBits);
    }

    /** The value of {@code key}, whose {@link ByteKeys#hash} is {@code hash}, or null. Any thread. */
    byte[] get(byte[] key, int hash) {
        while (true) {
            Keys t = keys;
            int tag = t.tag(hash);
            for (int i = hash & t.mask; ; i = (i + 1) & t.mask) {
                int entry = (int) INTS.getAcquire(t.slots, i);
                if (entry == 0) {
                    break;
                }
                while (entry != GONE && (entry & t.tagMask) == tag) {
                    int id = t.id(entry);
                    Object searched = leafOf(id);
                    if (searched instanceof byte[] leaf) {
                        int j = PackedLeaf.find(leaf, key);
                        if (j >= 0) {
                            return PackedLeaf.value(leaf, j);
                        }
                    }
                    int again = (int) INTS.getAcquire(t.slots, i);
                    if (again == entry && leafOf(id) == searched) {
                        break; // another key's slot, or this key's and it is not there
                    }
                    entry = again; // the key moved meanwhile, or its leaf changed: look again
                }
            }
            if (keys == t) {
                return null;
            }
        }
    }

    /**
     * Readies the index for a write of up to {@code writes} keys, before the write begins: room
     * for that many new keys, and for the leaf ids such a write can use — those in use before
     * it and the leaves it leaves behind, each holding a key (freed ids are reused first).
     * Rebuilds the key table when it lacks either. Writer only, between writes.
     */
    void reserve(int writes) {
        Keys t = keys;
        long neededIds = (long) nextId + live + writes + 64;
        if ((long) taken + writes > (long) t.slots.length / 4 * 3 || neededIds > t.maxId) {
            rebuild(writes, neededIds);
        }
    }

    /** After a write: gives back the table a store that shrank no longer needs. Writer only. */
    void settle() {
        if (live < keys.slots.length / 16 && keys.slots.length > MIN_CAPACITY) {
            rebuild(0, (long) nextId + 64);
        }
    }

    /** The current leaf of {@code id}, or null; any thread. */
    private Object leafOf(int id) {
        Object[] table = leaves;
        return id < table.length ? OBJECTS.getAcquire(table, id) : null;
    }

    /** A new leaf id, not in use. Writer only. */
    int newId() {
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        if (id > keys.maxId) {
            throw new IllegalStateException("the packed index ran out of leaf ids (" + keys.maxId + ") within one write");
        }
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
     * the leaf is already published, and {@link #reserve} made room for the key.
     */
    void place(byte[] leaf, int j, int from) {
        int to = PackedLeaf.id(leaf);
        int kf = PackedLeaf.keyStart(leaf, j);
        int kt = kf + PackedLeaf.keyLength(leaf, j);
        int hash = ByteKeys.hash(leaf, kf, kt);
        Keys t = keys;
        if (from != PackedLeaf.NO_ID) {
            INTS.setRelease(t.slots, slotOf(t, hash, from, leaf, kf, kt), t.entry(hash, to));
            return;
        }
        if (taken >= t.mask) {
            throw new IllegalStateException("the packed index is full: a write placed more keys than it reserved");
        }
        int reuse = -1;
        for (int i = hash & t.mask; ; i = (i + 1) & t.mask) {
            int found = t.slots[i];
            if (found == 0) {
                if (reuse >= 0) {
                    i = reuse;
                } else {
                    taken++;
                }
                INTS.setRelease(t.slots, i, t.entry(hash, to));
                live++;
                return;
            }
            if (reuse < 0 && found == GONE) {
                reuse = i;
            }
        }
    }

    /** Forgets the key of entry {@code j} of {@code leaf}, which the index has in that leaf's id. Writer only. */
    void remove(byte[] leaf, int j) {
        int kf = PackedLeaf.keyStart(leaf, j);
        int kt = kf + PackedLeaf.keyLength(leaf, j);
        Keys t = keys;
        INTS.setRelease(t.slots, slotOf(t, ByteKeys.hash(leaf, kf, kt), PackedLeaf.id(leaf), leaf, kf, kt), GONE);
        live--;
    }

    /** The slot of the key {@code bytes[kf, kt)}, with hash {@code hash}, which the index has in leaf {@code id}. */
    private int slotOf(Keys t, int hash, int id, byte[] bytes, int kf, int kt) {
        int entry = t.entry(hash, id);
        for (int i = hash & t.mask; ; i = (i + 1) & t.mask) {
            int found = t.slots[i];
            if (found == 0) {
                throw new IllegalStateException("a key the packed store holds is not in its index");
            }
            if (found == entry && PackedLeaf.find(leaf(id), bytes, kf, kt) >= 0) {
                return i;
            }
        }
    }

    /**
     * A new key table, published whole, rebuilt from the leaves (between writes every key is in
     * exactly one of them): at most half full, and three quarters once {@code writes} more keys
     * arrive; its ids as wide as {@code neededIds} asks.
     */
    private void rebuild(int writes, long neededIds) {
        int capacity = MIN_CAPACITY;
        while (capacity / 2 < live || (long) capacity / 4 * 3 < (long) live + writes) {
            if (capacity == 1 << 30) {
                throw new IllegalStateException("the packed index cannot hold " + ((long) live + writes) + " keys");
            }
            capacity *= 2;
        }
        int idBits = minIdBits;
        while ((1L << idBits) - 3 < neededIds) {
            if (++idBits > MAX_ID_BITS) {
                throw new IllegalStateException("the packed index cannot name " + neededIds + " leaves");
            }
        }
        Keys t = new Keys(capacity, idBits);
        Object[] table = leaves;
        int count = 0;
        for (int id = 0; id < nextId; id++) {
            if (table[id] instanceof byte[] leaf) {
                for (int j = 0, n = PackedLeaf.count(leaf); j < n; j++) {
                    int kf = PackedLeaf.keyStart(leaf, j);
                    int hash = ByteKeys.hash(leaf, kf, kf + PackedLeaf.keyLength(leaf, j));
                    int i = hash & t.mask;
                    while (t.slots[i] != 0) {
                        i = (i + 1) & t.mask;
                    }
                    t.slots[i] = t.entry(hash, id);
                    count++;
                }
            }
        }
        if (count != live) {
            throw new IllegalStateException("the packed index holds " + live + " keys, its leaves " + count);
        }
        taken = live;
        keys = t;
    }

    /** Forgets every key and leaf. Writer only. */
    void clear() {
        keys = new Keys(MIN_CAPACITY, minIdBits);
        leaves = new Object[64];
        freeCount = 0;
        nextId = 0;
        live = 0;
        taken = 0;
    }

    /** What the index takes on the heap: the key table and the table of leaves (not the leaves). */
    long heapBytes() {
        return ((16L + 4L * keys.slots.length + 7) & ~7L) + ((16L + 4L * leaves.length + 7) & ~7L)
                + ((16L + 4L * freeIds.length + 7) & ~7L);
    }

    /** Slots of the key table. Writer only. */
    int slots() {
        return keys.slots.length;
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
