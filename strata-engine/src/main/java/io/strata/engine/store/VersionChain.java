package io.strata.engine.store;

/**
 * The versions of one key, newest first. A null value is a tombstone (the key was cleared).
 * The chain carries its key and the key's hash, so that the {@link ChainIndex} stores the
 * chain alone.
 *
 * <p>One writer prepends with a volatile write; readers walk the published nodes without
 * locking. Pruning cuts a chain after a given node in O(1) (see {@link VersionedStore}).
 */
final class VersionChain {
    /** A version of the key. {@code next} is cut by pruning only. */
    static final class Node {
        final long version;
        final byte[] value;
        volatile Node next;
        /**
         * Replaced by a second write in the same version: no longer in the chain, so its
         * pruning entry must not cut anything. Writer-only.
         */
        boolean replaced;

        Node(long version, byte[] value, Node next) {
            this.version = version;
            this.value = value;
            this.next = next;
        }
    }

    final byte[] key;
    /** {@code ByteKeys.hash(key)}. */
    final int hash;
    private volatile Node head;

    VersionChain(byte[] key, int hash) {
        this.key = key;
        this.hash = hash;
    }

    byte[] valueAt(long version) {
        for (Node n = head; n != null; n = n.next) {
            if (n.version <= version) {
                return n.value;
            }
        }
        return null;
    }

    /** Whether nothing was ever written to this chain (it was just made for a new key). */
    boolean isEmpty() {
        return head == null;
    }

    byte[] latestValue() {
        Node h = head;
        return h == null ? null : h.value;
    }

    /**
     * Records {@code value} at {@code version}; a second write in the same version (same
     * commit batch) replaces the first, since no reader can see that version yet.
     *
     * @return the node now holding the write
     */
    Node write(long version, byte[] value) {
        Node h = head;
        Node n;
        if (h != null && h.version == version) {
            h.replaced = true;
            n = new Node(version, value, h.next);
        } else {
            n = new Node(version, value, h);
        }
        head = n;
        return n;
    }

    /**
     * Called when {@code n}'s version falls below the readable floor: no admitted reader
     * can walk past {@code n} any more (it stops at {@code n} or at a newer node), so every
     * older node goes. Older nodes' own entries came first and cut their tails, so this
     * drops at most one node.
     *
     * @return true when the chain is now only an old tombstone, so the key can be removed
     */
    boolean pruneAfter(Node n) {
        if (n.replaced) {
            return false;
        }
        n.next = null;
        return head == n && n.value == null;
    }
}
