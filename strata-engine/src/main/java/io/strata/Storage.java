package io.strata;

/**
 * Where a durable database keeps its data, chosen when a directory is created and recorded
 * in it: a later open without {@link Strata.Builder#storage} uses what created the
 * directory, and an open that asks for the other one is refused.
 *
 * <p>Both keep FoundationDB's 5-second MVCC window in memory and acknowledge a commit once
 * its log record is durable; they differ in where the newest version of each key lives —
 * the two storage engines a FoundationDB cluster offers ({@code memory} and {@code ssd}).
 */
public enum Storage {
    /**
     * Every key and value in the Java heap; the log and checkpoints only make it survive
     * restarts. Fastest while the data fits in the heap; a store past its memory limit
     * refuses writes ({@code storage_quota_exceeded}). FoundationDB's {@code memory} engine.
     */
    MEMORY,
    /**
     * The newest version of every key in an ordered store on disk (RocksDB) with a bounded
     * cache; only the window's versions stay in memory, and the disk store catches up with
     * the log in the background. For data larger than memory; restart time is bounded by
     * the window and the log since the last checkpoint, not by the data. FoundationDB's
     * {@code ssd} engine family ({@code ssd-rocksdb-v1}).
     */
    SSD;

    /** The name used on the command line and in the directory: {@code memory} or {@code ssd}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The storage named {@code label} ({@code memory} or {@code ssd}, any case). */
    public static Storage fromLabel(String label) {
        for (Storage s : values()) {
            if (s.label().equalsIgnoreCase(label.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown storage '" + label + "': expected memory or ssd");
    }
}
