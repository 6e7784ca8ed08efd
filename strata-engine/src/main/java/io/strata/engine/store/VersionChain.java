package io.strata.engine.store;

/**
 * The versions of one key, newest first. A null value is a tombstone (the key was cleared).
 *
 * <p>One writer prepends with a volatile write; readers walk the immutable-once-published
 * nodes without locking. Only {@link #pruneBefore} cuts the tail, and it cuts only entries
 * older than the newest entry at or below the floor, which no admitted reader can need.
 */
final class VersionChain {
    /** A version of the key. {@code next} is cut by pruning only. */
    static final class Node {
        final long version;
        final byte[] value;
        volatile Node next;

        Node(long version, byte[] value, Node next) {
            this.version = version;
            this.value = value;
            this.next = next;
        }
    }

    private volatile Node head;

    byte[] valueAt(long version) {
        for (Node n = head; n != null; n = n.next) {
            if (n.version <= version) {
                return n.value;
            }
        }
        return null;
    }

    byte[] latestValue() {
        Node h = head;
        return h == null ? null : h.value;
    }

    /**
     * Records {@code value} at {@code version}; a second write in the same version (same
     * commit batch) replaces the first, since no reader can see that version yet.
     *
     * @return the change in held bytes
     */
    long write(long version, byte[] value, int keyLength) {
        Node h = head;
        long delta = keyLength + (value == null ? 0 : value.length);
        if (h != null && h.version == version) {
            delta -= keyLength + (h.value == null ? 0 : h.value.length);
            head = new Node(version, value, h.next);
        } else {
            head = new Node(version, value, h);
        }
        return delta;
    }

    /**
     * Drops every entry older than the newest entry at or below {@code floor}.
     *
     * @return bytes released
     */
    long pruneBefore(long floor, int keyLength) {
        for (Node n = head; n != null; n = n.next) {
            if (n.version <= floor) {
                long released = 0;
                for (Node old = n.next; old != null; old = old.next) {
                    released += keyLength + (old.value == null ? 0 : old.value.length);
                }
                n.next = null;
                return released;
            }
        }
        return 0;
    }

    /** True when the only entry is a tombstone at or below the floor: the key can go. */
    boolean isOnlyOldTombstone(long floor) {
        Node h = head;
        return h != null && h.value == null && h.next == null && h.version <= floor;
    }
}
