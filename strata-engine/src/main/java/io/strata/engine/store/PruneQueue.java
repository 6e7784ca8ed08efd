package io.strata.engine.store;

/**
 * The store's writes in version order, oldest first, for pruning: each is a chain and the
 * node the write created. In memory, a key's first write is not here: nothing is older than
 * it, so pruning has nothing to cut behind it, and most writes are first writes; over a disk
 * store every write is, since every write must reach the disk. Two parallel ring
 * arrays rather than a queue of records, so a write costs no object of its own — the writes
 * of the last five seconds are millions of entries, and every one the garbage collector
 * would otherwise copy. Writer-owned.
 */
final class PruneQueue {
    private VersionChain[] chains = new VersionChain[MIN_CAPACITY];
    private VersionNode[] nodes = new VersionNode[MIN_CAPACITY];
    /** Index of the oldest entry, and the number held; capacity is a power of two. */
    private int head;
    private int count;

    /** Records that {@code node}, a write to {@code chain} newer than its first, must be pruned in its turn. */
    void add(VersionChain chain, VersionNode node) {
        if (count == chains.length) {
            grow();
        }
        int at = (head + count) & (chains.length - 1);
        chains[at] = chain;
        nodes[at] = node;
        count++;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The version of the oldest entry's node; not empty. */
    long oldestVersion() {
        return oldestNode().version;
    }

    /** The version of the newest entry's node; not empty. */
    long newestVersion() {
        return nodes[(head + count - 1) & (chains.length - 1)].version;
    }

    VersionChain oldestChain() {
        return chains[head];
    }

    VersionNode oldestNode() {
        return nodes[head];
    }

    /** Drops the oldest entry. */
    void removeOldest() {
        chains[head] = null;
        nodes[head] = null;
        head = (head + 1) & (chains.length - 1);
        count--;
        if (count < chains.length / 16 && chains.length > MIN_CAPACITY) {
            resize(chains.length / 4); // give back what five seconds of a burst grew
        }
    }

    private static final int MIN_CAPACITY = 1024;

    private void grow() {
        resize(chains.length * 2);
    }

    private void resize(int capacity) {
        VersionChain[] c = new VersionChain[capacity];
        VersionNode[] n = new VersionNode[capacity];
        for (int i = 0; i < count; i++) {
            int from = (head + i) & (chains.length - 1);
            c[i] = chains[from];
            n[i] = nodes[from];
        }
        chains = c;
        nodes = n;
        head = 0;
    }
}
