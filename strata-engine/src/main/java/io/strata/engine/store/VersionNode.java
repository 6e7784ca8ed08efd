package io.strata.engine.store;

/** A version of a key in a {@link VersionChain}. {@code next} is cut by pruning only. */
class VersionNode {
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
        this.next = next;
    }
}
