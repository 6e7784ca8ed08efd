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
    static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(VersionNode.class, "next", VersionNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long version;
    /** Final but for the chain's own first node, whose value pruning may drop. */
    byte[] value;
    volatile VersionNode next;
    /**
     * Replaced by a second write in the same version: no longer in the chain, so its
     * pruning entry must not cut anything. Writer-only.
     */
    boolean replaced;

    VersionNode(long version, byte[] value, VersionNode next) {
        this.version = version;
        this.value = value;
        NEXT.set(this, next); // plain: published by whatever links this node
    }
}
