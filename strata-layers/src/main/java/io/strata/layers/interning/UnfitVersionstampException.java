package io.strata.layers.interning;

/**
 * A transaction committed mappings whose versionstamps do not fit the uint64 packing of its
 * {@link VersionstampIdAllocator}: those mappings have no ID, and interning the same strings
 * again (in a new transaction) replaces them. The {@code Database}-level methods of
 * {@link StringInterner} do so themselves.
 */
public final class UnfitVersionstampException extends RuntimeException {
    public UnfitVersionstampException(String message) {
        super(message);
    }
}
