package io.strata.bench.ssd;

import io.strata.MvccWindow;

import java.nio.file.Path;

/**
 * An engine under {@code strata bench ssd}, open on a directory: Strata ({@link StrataTarget})
 * or RocksDB alone ({@link RocksTarget}). Thread-safe; each reading thread uses its own
 * {@link Reader}.
 */
public interface SsdTarget extends AutoCloseable {
    String STRATA = "strata";
    /**
     * Strata with {@code MvccWindow.OPEN_TRANSACTIONS}: versions kept only for open
     * transactions, not FoundationDB's five seconds (what {@code strata serve redis} uses).
     */
    String STRATA_OPEN = "strata-open";
    String ROCKSDB = "rocksdb";
    /** Every engine name {@link #open} knows. */
    java.util.List<String> NAMES = java.util.List.of(STRATA, STRATA_OPEN, ROCKSDB);

    /** Whether {@code engine} is one of Strata's (its RocksDB files are under {@code ssd/}). */
    static boolean isStrata(String engine) {
        return engine.equals(STRATA) || engine.equals(STRATA_OPEN);
    }

    String name();

    /**
     * Writes keys {@code [first, first + count)} of {@code data} in one durable transaction
     * (Strata: one commit; RocksDB: one synced write batch); returns once it is durable.
     *
     * @return how many times the write was refused and retried (Strata's memory limit)
     */
    int writeBatch(SsdData data, long first, int count);

    /** A reader for one thread. */
    Reader reader();

    /**
     * The split points of every key below {@link SsdData#END} at chunks of about
     * {@code chunkBytes} (fdb-java's {@code getRangeSplitPoints}, begin and end included), or
     * null when the engine has no such call.
     */
    default java.util.List<byte[]> splitPoints(long chunkBytes) {
        return null;
    }

    @Override
    void close();

    /** One thread's reads: each call is a transaction of its own on Strata. */
    interface Reader extends AutoCloseable {
        /** The value of {@code key}, or null. */
        byte[] get(byte[] key);

        /** Reads up to {@code limit} keys and values from {@code begin} upward; returns how many. */
        int scan(byte[] begin, int limit);

        @Override
        void close();
    }

    /**
     * Opens (or creates) {@code engine}'s store in {@code directory} with a block cache of
     * {@code cacheBytes}.
     */
    static SsdTarget open(String engine, Path directory, long cacheBytes) {
        return switch (engine) {
            case STRATA -> StrataTarget.open(directory, cacheBytes, MvccWindow.FIVE_SECONDS);
            case STRATA_OPEN -> StrataTarget.open(directory, cacheBytes, MvccWindow.OPEN_TRANSACTIONS);
            case ROCKSDB -> RocksTarget.open(directory, cacheBytes);
            default -> throw new IllegalArgumentException("unknown engine: " + engine + " " + NAMES);
        };
    }
}
