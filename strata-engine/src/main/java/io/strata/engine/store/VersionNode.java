package io.strata.engine.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** A version of a key in a {@link VersionChain}. {@code next} is cut by pruning only. */
class VersionNode {
    private static final VarHandle NEXT;

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
        // A plain write: the node is unpublished until the chain's head or the index's slot
        // is written with release semantics, which orders this write before it. A volatile
        // write here would fence the sequencer once per new key.
        NEXT.set(this, next);
    }
}
