package io.strata.engine.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A version of a key in a {@link VersionChain}. {@code next} is cut by pruning only.
 *
 * <p>{@code next} is read as a volatile but never written as one: a volatile write is, on
 * x86, a locked instruction that waits for the writer's earlier stores (to new objects and
 * index slots that missed the cache) to complete, and the sequencer would pay it for every
 * key it writes. A node is published by the release write that links it (a chain's head, a
 * hash-index slot, a B+tree leaf's even stamp), so its fields are set plainly before that.
 */
class VersionNode {
    static final VarHandle NEXT = Handles.field(MethodHandles.lookup(), VersionNode.class, "next", VersionNode.class);

    /** Values of up to this many bytes are held in {@link #inline}, not in an array of their own. */
    static final int INLINE_MAX = Long.BYTES;
    /**
     * One marker per length {@code 0..INLINE_MAX}: {@link #value} holds the marker of a value
     * kept in {@link #inline}. Compared by identity; never handed out.
     */
    private static final byte[][] INLINE_MARKERS = new byte[INLINE_MAX + 1][];

    static {
        for (int length = 0; length <= INLINE_MAX; length++) {
            INLINE_MARKERS[length] = new byte[length];
        }
    }

    final long version;
    /**
     * The value, null for a tombstone, or an inline marker (see {@link #value()}). Final but
     * for the chain's own first node, whose value pruning may drop.
     */
    byte[] value;
    /**
     * A short value's bytes, the first in the lowest byte. Most values a layer writes are
     * short — IDs, counters, 8-byte big-endian numbers — and an array costs 16 bytes of
     * header besides its bytes, and one more object for the collector to copy out of the
     * young generation: a third of what a new key leaves behind.
     */
    private final long inline;
    volatile VersionNode next;
    /**
     * Replaced by a second write in the same version: no longer in the chain, so its
     * pruning entry must not cut anything. Writer-only.
     */
    boolean replaced;

    VersionNode(long version, byte[] value, VersionNode next) {
        this.version = version;
        if (value != null && value.length <= INLINE_MAX) {
            long bytes = 0;
            for (int i = value.length - 1; i >= 0; i--) {
                bytes = bytes << 8 | (value[i] & 0xFF);
            }
            this.inline = bytes;
            this.value = INLINE_MARKERS[value.length];
        } else {
            this.inline = 0;
            this.value = value;
        }
        NEXT.set(this, next); // plain: published by whatever links this node
    }

    /**
     * The heap this node's value takes apart from the node: its array's header and bytes, or
     * nothing for a tombstone or an inline value. Writer only (for {@link VersionedStore#bytes}).
     */
    final long valueHeapBytes() {
        byte[] v = value;
        if (v == null || (v.length <= INLINE_MAX && v == INLINE_MARKERS[v.length])) {
            return 0;
        }
        return HeapSizes.array(v.length);
    }

    /**
     * The value, or null for a tombstone. A short value comes back as a new array each time;
     * a longer one is the stored array itself, which callers must not change.
     */
    final byte[] value() {
        byte[] v = value;
        if (v == null || v.length > INLINE_MAX || v != INLINE_MARKERS[v.length]) {
            return v;
        }
        byte[] out = new byte[v.length];
        long bytes = inline;
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) bytes;
            bytes >>>= 8;
        }
        return out;
    }
}
