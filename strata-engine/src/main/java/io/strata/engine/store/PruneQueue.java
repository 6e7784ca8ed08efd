package io.strata.engine.store;

/**
 * The store's writes in version order, oldest first, for pruning: each is a chain and the
 * node the write created. Two parallel ring arrays rather than a queue of records, so a
 * write costs no object of its own — the writes of the last five seconds are millions of
 * entries, and every one the garbage collector would otherwise copy. Writer-owned.
 */
final class PruneQueue {
    private VersionChain[] chains = new VersionChain[1024];
    private VersionNode[] nodes = new VersionNode[1024];
    /** Index of the oldest entry, and the number held; capacity is a power of two. */
    private int head;
    private int count;

    /**
     * A key's first write is its chain itself ({@code node == chain}); that entry's node slot
     * stays null, so that a new key leaves one reference here instead of two: every young
     * collection visits each reference to a young object, and most writes are first writes.
     */
    void add(VersionChain chain, VersionNode node) {
        if (count == chains.length) {
            grow();
        }
        int at = (head + count) & (chains.length - 1);
        chains[at] = chain;
        nodes[at] = node == chain ? null : node;
        count++;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The version of the oldest entry's node; not empty. */
    long oldestVersion() {
        return oldestNode().version;
    }

    VersionChain oldestChain() {
        return chains[head];
    }

    VersionNode oldestNode() {
        VersionNode node = nodes[head];
        return node != null ? node : chains[head];
    }

    /** Drops the oldest entry. */
    void removeOldest() {
        chains[head] = null;
        nodes[head] = null;
        head = (head + 1) & (chains.length - 1);
        count--;
    }

    private void grow() {
        VersionChain[] c = new VersionChain[chains.length * 2];
        VersionNode[] n = new VersionNode[nodes.length * 2];
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
