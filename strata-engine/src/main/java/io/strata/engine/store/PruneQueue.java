package io.strata.engine.store;

/**
 * The store's writes in version order, oldest first, for pruning: each is a chain and the
 * node the write created. In memory, a key's first write is not here: nothing is older than
 * it, so pruning has nothing to cut behind it, and most writes are first writes; over a disk
 * or packed store every write is, since every write must reach it. Writer-owned.
 *
 * <p>Pairs of arrays rather than a queue of records, so a write costs no object of its own —
 * the writes of the last five seconds are millions of entries, and every one the garbage
 * collector would otherwise copy. And chunks of {@link #CHUNK} entries, each allocated when the
 * queue reaches it and dropped when pruning leaves it, rather than one ring: a write stores two
 * references to young objects, and into a ring that has lived long enough to be old each store
 * dirties a card that G1 must then refine (a profile of interning over the packed store showed
 * G1's refinement threads at a quarter of the CPU); a chunk being filled is young itself.
 */
final class PruneQueue {
    static final int CHUNK = 4096;

    private static final class Chunk {
        final VersionChain[] chains = new VersionChain[CHUNK];
        final VersionNode[] nodes = new VersionNode[CHUNK];
        Chunk next;
    }

    /** The chunk holding the oldest entry, and that entry's index in it. */
    private Chunk head = new Chunk();
    private int headAt;
    /** The chunk taking the next entry, and where. */
    private Chunk tail = head;
    private int tailAt;
    private int count;

    /** Records that {@code node}, a write to {@code chain}, must be pruned in its turn. */
    void add(VersionChain chain, VersionNode node) {
        if (tailAt == CHUNK) {
            Chunk c = new Chunk();
            tail.next = c;
            tail = c;
            tailAt = 0;
        }
        tail.chains[tailAt] = chain;
        tail.nodes[tailAt++] = node;
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
        return tail.nodes[tailAt - 1].version;
    }

    VersionChain oldestChain() {
        return head.chains[headAt];
    }

    VersionNode oldestNode() {
        return head.nodes[headAt];
    }

    /** Drops the oldest entry. */
    void removeOldest() {
        head.chains[headAt] = null;
        head.nodes[headAt] = null;
        headAt++;
        count--;
        if (headAt == CHUNK) {
            if (head == tail) {
                tailAt = 0; // empty: reuse the chunk
            } else {
                head = head.next;
            }
            headAt = 0;
        } else if (count == 0) {
            headAt = 0;
            tailAt = 0;
        }
    }
}
