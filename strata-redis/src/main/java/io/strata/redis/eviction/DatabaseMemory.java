package io.strata.redis.eviction;

/**
 * What the database under the server says of its own size, for {@code maxmemory}: given by
 * whoever opened the database and can measure it (on Strata's engine, its store's estimate of
 * the heap the data takes); a FoundationDB cluster manages its own space, so a server on one
 * has none, and there {@code maxmemory} is only recorded.
 *
 * <p>Implementations are called from any thread.
 */
public interface DatabaseMemory {
    /**
     * Bytes the data takes now, as the database estimates it; -1 when it cannot tell what
     * its data takes (Strata's disk engine keeps only recent versions in memory), and then
     * nothing is evicted.
     */
    long usedBytes();

    /**
     * The newest commit version whose clears {@link #usedBytes} already counts out: what a
     * transaction committed after it deleted may still be counted (a database that keeps
     * recent versions for its readers frees them later).
     */
    long settledVersion();

    /** Sets the database's own limit, past which it refuses writes; 0: its default. */
    void limit(long bytes);

    /** Whether the database refuses writes now because it is past its own limit. */
    boolean full();

    /** A gauge made of its four parts (e.g. method references to a database engine's). */
    static DatabaseMemory of(java.util.function.LongSupplier usedBytes, java.util.function.LongSupplier settledVersion,
                             java.util.function.LongConsumer limit, java.util.function.BooleanSupplier full) {
        return new DatabaseMemory() {
            @Override
            public long usedBytes() {
                return usedBytes.getAsLong();
            }

            @Override
            public long settledVersion() {
                return settledVersion.getAsLong();
            }

            @Override
            public void limit(long bytes) {
                limit.accept(bytes);
            }

            @Override
            public boolean full() {
                return full.getAsBoolean();
            }
        };
    }
}
