package io.strata;

/**
 * How long the engine keeps old versions readable (its MVCC window), chosen when a database
 * is opened ({@link Strata.Builder#mvccWindow}); nothing of it is recorded on disk.
 */
public enum MvccWindow {
    /**
     * FoundationDB's: every version of the last five seconds stays readable
     * ({@code MAX_READ_TRANSACTION_LIFE_VERSIONS}), whoever asks for it — a transaction's own
     * read version, or one passed to {@code setReadVersion} (a version cached from another
     * transaction, a committed version). The default.
     */
    FIVE_SECONDS,
    /**
     * Versions stay readable only while an open transaction of this engine may read them:
     * those older than the read version of the oldest transaction not yet closed (cancelled,
     * reset by {@code onError}) are dropped, and never later than after five seconds. Every
     * transaction that takes its own read version reads and commits exactly as under
     * {@link #FIVE_SECONDS}, including one that lives for seconds; what differs is
     * {@code setReadVersion} with a version no open transaction holds any more, which may
     * then fail with {@code transaction_too_old} (1007) sooner than five seconds.
     *
     * <p>For a process that owns its engine and never sets read versions (the Redis-compatible
     * server): the window then holds milliseconds of writes instead of five seconds, so the
     * objects of each write die young and the garbage collector does not copy them into the
     * old generation. A transaction left open without being closed keeps old versions for
     * five seconds, as under {@link #FIVE_SECONDS}.
     */
    OPEN_TRANSACTIONS;

    /** The name used on the command line: {@code five-seconds} or {@code open-transactions}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** The window named {@code label} ({@code five-seconds} or {@code open-transactions}, any case). */
    public static MvccWindow fromLabel(String label) {
        for (MvccWindow w : values()) {
            if (w.label().equalsIgnoreCase(label.trim())) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown MVCC window '" + label + "': expected five-seconds or open-transactions");
    }
}
