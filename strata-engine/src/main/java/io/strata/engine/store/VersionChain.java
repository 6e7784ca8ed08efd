package io.strata.engine.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The versions of one key, newest first. A null value is a tombstone (the key was cleared).
 * The chain carries its key and the key's hash, so that the {@link ChainIndex} stores the
 * chain alone.
 *
 * <p>The chain is itself the node of the key's first write: most keys are written once, and
 * then a key costs this one object besides its bytes, and besides its value only when that is
 * longer than {@link VersionNode#INLINE_MAX} bytes. Once a newer node is pruned
 * past it, that first node is out of every admitted reader's reach, and its value is dropped
 * so that an overwritten key does not keep its first value alive.
 *
 * <p>One writer prepends with a release write; readers walk the published nodes without
 * locking. Pruning cuts a chain after a given node in O(1) (see {@link VersionedStore}).
 */
final class VersionChain extends VersionNode {
    final byte[] key;
    /** {@code ByteKeys.hash(key)}. */
    final int hash;
    /** Read as a volatile; written through {@link #HEAD} (see {@link VersionNode}). */
    private volatile VersionNode head;
    private static final VarHandle HEAD =
            Handles.field(MethodHandles.lookup(), VersionChain.class, "head", VersionNode.class);

    /**
     * A chain whose first write set {@code key} to {@code value} at {@code version}; null (a
     * tombstone) only over a disk store, where the key may be on disk.
     */
    VersionChain(byte[] key, int hash, long version, byte[] value) {
        super(version, value, null);
        this.key = key;
        this.hash = hash;
        HEAD.set(this, this); // plain: the chain is published by the index slot it enters
    }

    byte[] valueAt(long version) {
        for (VersionNode n = head; n != null; n = n.next) {
            if (n.version <= version) {
                return n.value();
            }
        }
        return null;
    }

    /**
     * The newest node at or below {@code version}, or null when every version held is newer
     * (over a disk store the key's older state is then on disk).
     */
    VersionNode nodeAt(long version) {
        for (VersionNode n = head; n != null; n = n.next) {
            if (n.version <= version) {
                return n;
            }
        }
        return null;
    }

    /** The newest node (the chain itself until a second write); writer only. */
    VersionNode newest() {
        return head;
    }

    byte[] latestValue() {
        return head.value();
    }

    /** Whether the newest write is a tombstone (cheaper than {@code latestValue() == null}). */
    boolean latestIsTombstone() {
        return head.value == null;
    }

    /**
     * Records {@code value} at {@code version}; a second write in the same version (same
     * commit batch) replaces the first, since no reader can see that version yet.
     *
     * @return the node now holding the write
     */
    VersionNode write(long version, byte[] value) {
        VersionNode h = head;
        VersionNode n;
        if (h.version == version) {
            h.replaced = true;
            if (h == this) {
                this.value = null; // never published, so never read: see the class comment
            }
            n = new VersionNode(version, value, h.next);
        } else {
            n = new VersionNode(version, value, h);
        }
        HEAD.setRelease(this, n); // publishes n (see VersionNode on why not a volatile write)
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
    boolean pruneAfter(VersionNode n) {
        assert n != this : "a key's first write has no pruning entry";
        if (n.replaced) {
            return false;
        }
        NEXT.setOpaque(n, null); // a reader may still pass it until it sees the cut: both are right
        value = null; // n is a later write (first writes have no entry): the first is out of reach
        return head == n && n.value == null;
    }
}
