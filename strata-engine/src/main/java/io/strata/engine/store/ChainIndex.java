package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The store's chains by key, for point reads and for the writer's find-or-create: an
 * open-addressing hash table with linear probing, written by one thread and read by any.
 *
 * <h2>Layout</h2>
 * Each chain gets a <em>number</em>, its slot in {@link #chains}, an array filled in order
 * (numbers of removed chains are reused). The table is a {@code long[]} whose entries pack the
 * key's hash (high half) with the chain's number plus one (low half; 0 is an empty slot).
 * <ul>
 *   <li>A probe compares hashes within the entries, one cache line, and loads a chain only
 *       when a hash matches. Inserting a new key touches one random line of the table, and the
 *       end of {@link #chains}, which is in cache: with separate arrays of chains and of
 *       hashes it was two random lines, a third of the commit sequencer's time when every
 *       write is a new key.</li>
 *   <li>The table holds no references, so the garbage collector never scans it; the array it
 *       does scan, {@link #chains}, is written at its end, so few of its cards are dirty at a
 *       young collection (random stores into a large table of references dirtied nearly all
 *       of them).</li>
 *   <li>Growing the table rehashes entries alone, without loading a chain.</li>
 * </ul>
 *
 * <h2>Why not a {@code ConcurrentHashMap}</h2>
 * A {@code ConcurrentHashMap} entry costs a node and a key wrapper per key on top of the
 * chain, both kept for the key's life (the garbage collector copies them at least once),
 * and its resize moves nodes one by one on the inserting thread — the commit sequencer.
 *
 * <h2>Concurrency</h2>
 * One writer (the commit sequencer), many readers, no locks:
 * <ul>
 *   <li>A chain is fully built (key and hash final, number set) and stored at its number with
 *       a release write before its entry is stored, also with a release write; readers load
 *       entries, then chains, with acquire reads. So a reader that sees an entry finds its
 *       chain — in the array it reads then, which is the one the chain was stored in or a
 *       later, larger copy of it.</li>
 *   <li>Entries never move within a table. A removal replaces the entry by a marker (so probes
 *       go on past it) and clears the chain's slot; a find-or-create may reuse the marked
 *       entry, and the number, for a new chain.</li>
 *   <li>A reader may therefore load a number that was removed or even reused since it read the
 *       entry: it finds null or a chain with another key, and goes on probing, as if the entry
 *       had been the marker. The chain it missed was removed, which happens only to chains no
 *       admitted reader needs (see {@link VersionedStore#pruneBefore}); a new chain of the same
 *       key holds only versions newer than any such reader may ask for.</li>
 *   <li>Growing builds a new table completely, then publishes it with one volatile write.
 *       A reader still probing the old one sees every chain that was there; what it misses
 *       was created later, at a version newer than any its read could ask for (the store's
 *       writer publishes a version only after applying it).</li>
 * </ul>
 * Probes always end at an empty entry: the table is kept at most half full, markers
 * included.
 */
final class ChainIndex {
    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle CHAINS = MethodHandles.arrayElementVarHandle(VersionChain[].class);
    /** The low half of a removed chain's entry: never a number plus one. */
    private static final int REMOVED = -1;
    private static final int MIN_CAPACITY = 1 << 10;
    /** Numbers are below this, so that a number plus one never reaches {@link #REMOVED}. */
    private static final int MAX_CHAINS = Integer.MAX_VALUE - 8;

    private volatile long[] table = new long[MIN_CAPACITY];
    /** Chains by number; replaced by a larger copy when full. */
    private volatile VersionChain[] chains = new VersionChain[MIN_CAPACITY];
    /** Writer-owned: numbers handed out so far, and the removed ones ready for reuse. */
    private int numbered;
    private int[] freeNumbers = new int[16];
    private int freeCount;
    /** Writer-owned: chains held, and entries holding the removal marker. */
    private int live;
    private int removed;
    /** Writer-owned: whether the last {@link #getOrCreate} made the chain. */
    boolean created;
    /** The number of chains, for readers. */
    private volatile int size;

    /** The chain of {@code key}, or null. Any thread. */
    VersionChain get(byte[] key) {
        int hash = ByteKeys.hash(key);
        long[] t = table;
        int mask = t.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            long e = (long) ENTRIES.getAcquire(t, i);
            if (e == 0) {
                return null;
            }
            if (hashOf(e) == hash && (int) e != REMOVED) {
                VersionChain c = (VersionChain) CHAINS.getAcquire(chains, numberOf(e));
                if (c != null && Arrays.equals(c.key, key)) {
                    return c;
                }
            }
        }
    }

    /**
     * The chain of {@code key}; if absent, a new one whose first write is {@code value} at
     * {@code version}, and {@link #created} tells so. Writer only.
     */
    VersionChain getOrCreate(byte[] key, long version, byte[] value) {
        created = false;
        int hash = ByteKeys.hash(key);
        long[] t = table;
        int mask = t.length - 1;
        int reusable = -1;
        int i = hash & mask;
        for (long e; (e = t[i]) != 0; i = (i + 1) & mask) { // the writer's own writes
            if ((int) e == REMOVED) {
                if (reusable < 0) {
                    reusable = i;
                }
            } else if (hashOf(e) == hash) {
                VersionChain c = chains[numberOf(e)];
                if (Arrays.equals(c.key, key)) {
                    return c;
                }
            }
        }
        VersionChain chain = new VersionChain(key, hash, version, value);
        int number = takeNumber();
        chain.number = number;
        CHAINS.setRelease(chains, number, chain);
        created = true;
        if (reusable >= 0) {
            removed--;
            i = reusable;
        }
        ENTRIES.setRelease(t, i, entry(hash, number));
        live++;
        size = live;
        if ((live + removed) * 2 > t.length) {
            rebuild();
        }
        return chain;
    }

    /** Removes {@code chain} (by identity); false if it is not held. Writer only. */
    boolean remove(VersionChain chain) {
        int number = chain.number;
        if (number < 0 || number >= numbered || chains[number] != chain) {
            return false;
        }
        long[] t = table;
        int mask = t.length - 1;
        long wanted = entry(chain.hash, number);
        for (int i = chain.hash & mask; ; i = (i + 1) & mask) {
            long e = t[i];
            if (e == wanted) {
                ENTRIES.setRelease(t, i, ((long) chain.hash << 32) | (REMOVED & 0xFFFF_FFFFL));
                CHAINS.setRelease(chains, number, null);
                chain.number = -1;
                releaseNumber(number);
                live--;
                removed++;
                size = live;
                return true;
            }
            if (e == 0) {
                throw new IllegalStateException("chain " + number + " held but not in the table");
            }
        }
    }

    /** Chains held. Any thread. */
    int size() {
        return size;
    }

    private static long entry(int hash, int number) {
        return ((long) hash << 32) | ((number + 1) & 0xFFFF_FFFFL);
    }

    private static int hashOf(long entry) {
        return (int) (entry >>> 32);
    }

    private static int numberOf(long entry) {
        return (int) entry - 1;
    }

    private int takeNumber() {
        if (freeCount > 0) {
            return freeNumbers[--freeCount];
        }
        if (numbered == chains.length) {
            if (numbered == MAX_CHAINS) {
                throw new IllegalStateException("more than " + MAX_CHAINS + " keys");
            }
            // A plain copy, then one volatile write: readers see the filled copy or the old array.
            chains = Arrays.copyOf(chains, (int) Math.min((long) numbered * 2, MAX_CHAINS));
        }
        return numbered++;
    }

    private void releaseNumber(int number) {
        if (freeCount == freeNumbers.length) {
            freeNumbers = Arrays.copyOf(freeNumbers, freeCount * 2);
        }
        freeNumbers[freeCount++] = number;
    }

    /** Rehashes the live entries into a fresh table a quarter full, then publishes it. */
    private void rebuild() {
        int capacity = MIN_CAPACITY;
        while (capacity < live * 4) {
            capacity <<= 1;
        }
        long[] old = table;
        long[] fresh = new long[capacity];
        int mask = capacity - 1;
        for (long e : old) {
            if (e != 0 && (int) e != REMOVED) {
                int i = hashOf(e) & mask;
                while (fresh[i] != 0) {
                    i = (i + 1) & mask;
                }
                fresh[i] = e;
            }
        }
        removed = 0;
        table = fresh; // volatile: the filled array is published whole
    }
}
