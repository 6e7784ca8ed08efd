package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The store's chains by key, for point reads and for the writer's find-or-create: an
 * open-addressing hash table with linear probing, written by one thread and read by any.
 *
 * <h2>Why not a {@code ConcurrentHashMap}</h2>
 * A {@code ConcurrentHashMap} entry costs a node and a key wrapper per key on top of the
 * chain, both kept for the key's life (the garbage collector copies them at least once),
 * and its resize moves nodes one by one on the inserting thread — the commit sequencer.
 * Together that was two fifths of the sequencer's time when every write is a new key. Here
 * an entry is one array slot holding the chain itself; the chain carries its key and hash.
 *
 * <h2>Why the chain sits beside its hash</h2>
 * A table of {@code long}s packing each hash with a chain's number in a separate array of
 * chains would hold no references (nothing for the collector to scan), but a read must then
 * load the entry before it knows where the chain is: one more cache miss in series. Here the
 * slot and its hash are loaded side by side and the processor overlaps the two misses. Tried:
 * reads of 3 M keys cost 1,566 instead of 1,048-1,107 ns of CPU per transaction.
 *
 * <h2>Concurrency</h2>
 * One writer (the commit sequencer), many readers, no locks:
 * <ul>
 *   <li>A chain is fully built (its key and hash are final) before it is stored in a slot
 *       with a release write; readers load slots with acquire reads.</li>
 *   <li>Entries never move within a table. A removal replaces the chain by the
 *       {@link #REMOVED} marker, so a probe passing that slot goes on to the entries behind
 *       it; a find-or-create may reuse the marked slot for a new chain.</li>
 *   <li>Growing builds a new table completely, then publishes it with one volatile write.
 *       A reader still probing the old one sees every chain that was there; what it misses
 *       was created later, at a version newer than any its read could ask for (the store's
 *       writer publishes a version only after applying it).</li>
 *   <li>A removed chain is one no admitted reader can need (see
 *       {@link VersionedStore#pruneBefore}), so a reader on a stale table that still
 *       finds it answers the same.</li>
 * </ul>
 * Probes always end at an empty slot: the table is kept at most half full, markers
 * included.
 */
final class ChainIndex {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(VersionChain[].class);
    private static final VarHandle SIZE = Handles.field(MethodHandles.lookup(), ChainIndex.class, "size", int.class);
    /** Marks a slot whose chain was removed; never equal to a real chain. */
    private static final VersionChain REMOVED = new VersionChain(new byte[0], 0, 0, new byte[0]);
    private static final int MIN_CAPACITY = 1 << 10;

    /**
     * Slots, and beside them the hash of each slot's chain, so that a probe passing other keys
     * compares hashes without loading their chains (a cache miss each). Written before the
     * slot, read after it.
     */
    private static final class Table {
        final VersionChain[] slots;
        final int[] hashes;

        Table(int capacity) {
            slots = new VersionChain[capacity];
            hashes = new int[capacity];
        }
    }

    private volatile Table table = new Table(MIN_CAPACITY);
    /** Writer-owned: chains held, and slots holding {@link #REMOVED}. */
    private int live;
    private int removed;
    /** Writer-owned: whether the last {@link #getOrCreate} made the chain. */
    boolean created;
    /** The number of chains, for readers. */
    private volatile int size;

    /** The chain of {@code key}, or null. Any thread. */
    VersionChain get(byte[] key) {
        return find(table, key, ByteKeys.hash(key));
    }

    /** {@link #get(byte[])} given {@code hash == ByteKeys.hash(key)}. Any thread. */
    VersionChain get(byte[] key, int hash) {
        return find(table, key, hash);
    }

    /**
     * The chain of {@code key}; if absent, a new one whose first write is {@code value} at
     * {@code version}, and {@link #created} tells so. Writer only.
     */
    VersionChain getOrCreate(byte[] key, long version, byte[] value) {
        return getOrCreate(key, ByteKeys.hash(key), version, value);
    }

    /** {@link #getOrCreate(byte[], long, byte[])} with {@code hash == ByteKeys.hash(key)}. Writer only. */
    VersionChain getOrCreate(byte[] key, int hash, long version, byte[] value) {
        created = false;
        Table t = table;
        int mask = t.slots.length - 1;
        int reusable = -1;
        int i = hash & mask;
        for (VersionChain c; (c = t.slots[i]) != null; i = (i + 1) & mask) { // the writer's own writes
            if (c == REMOVED) {
                if (reusable < 0) {
                    reusable = i;
                }
            } else if (t.hashes[i] == hash && Arrays.equals(c.key, key)) {
                return c;
            }
        }
        VersionChain chain = new VersionChain(key, hash, version, value);
        created = true;
        if (reusable >= 0) {
            removed--;
            i = reusable;
        }
        t.hashes[i] = hash;
        SLOTS.setRelease(t.slots, i, chain);
        live++;
        SIZE.setRelease(this, live); // not a volatile write: see VersionNode
        if ((live + removed) * 2 > t.slots.length) {
            rebuild();
        }
        return chain;
    }

    /**
     * Loads the slot where a probe for {@code hash} starts, and its hash, so that a later
     * {@link #getOrCreate} finds them in the cache; returns a value derived from both, which
     * the caller must keep (a load whose result is unused may be dropped by the compiler).
     * Writer only: the writer's table is the one its inserts will use.
     */
    int touch(int hash) {
        Table t = table;
        int i = hash & (t.slots.length - 1);
        return t.hashes[i] ^ (t.slots[i] == null ? 0 : 1);
    }

    /** Removes {@code chain} (by identity); false if it is not held. Writer only. */
    boolean remove(VersionChain chain) {
        Table t = table;
        int mask = t.slots.length - 1;
        for (int i = chain.hash & mask; ; i = (i + 1) & mask) {
            VersionChain c = t.slots[i];
            if (c == chain) {
                SLOTS.setRelease(t.slots, i, REMOVED);
                live--;
                removed++;
                SIZE.setRelease(this, live); // not a volatile write: see VersionNode
                if (live < t.slots.length / 32 && t.slots.length > MIN_CAPACITY) {
                    // Over a packed or disk store the window empties as keys leave it: give
                    // back the table a burst of writes grew (a million keys: 32 MiB).
                    rebuild();
                }
                return true;
            }
            if (c == null) {
                return false;
            }
        }
    }

    /** Chains held. Any thread. */
    int size() {
        return size;
    }

    private static VersionChain find(Table t, byte[] key, int hash) {
        int mask = t.slots.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            VersionChain c = (VersionChain) SLOTS.getAcquire(t.slots, i);
            if (c == null) {
                return null;
            }
            if (t.hashes[i] == hash && c != REMOVED && Arrays.equals(c.key, key)) {
                return c;
            }
        }
    }

    /** Copies the live chains into a fresh table a quarter full, then publishes it. */
    private void rebuild() {
        int capacity = MIN_CAPACITY;
        while (capacity < live * 4) {
            capacity <<= 1;
        }
        Table old = table;
        Table fresh = new Table(capacity);
        int mask = capacity - 1;
        for (int j = 0; j < old.slots.length; j++) {
            VersionChain c = old.slots[j];
            if (c != null && c != REMOVED) {
                int i = old.hashes[j] & mask;
                while (fresh.slots[i] != null) {
                    i = (i + 1) & mask;
                }
                fresh.slots[i] = c;
                fresh.hashes[i] = old.hashes[j];
            }
        }
        removed = 0;
        table = fresh; // volatile: the filled arrays are published whole
    }
}
