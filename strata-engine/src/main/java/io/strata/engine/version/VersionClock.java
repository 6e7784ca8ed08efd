package io.strata.engine.version;

import java.util.function.LongSupplier;

/**
 * Hands out commit versions that advance with time, about one million per second.
 *
 * <p>FoundationDB's master advances versions with wall time so that "5 seconds" and
 * "5,000,000 versions" mean the same thing: the MVCC window, the transaction lifetime and
 * the resolver's history are all measured in versions. This clock does the same from a
 * monotonic time source: {@code version = base + elapsedMicros}, bumped by one when two
 * batches fall in the same microsecond, so versions are strictly increasing.
 *
 * <p>Concurrency: {@link #nextCommitVersion()} is called only by the commit sequencer;
 * {@link #currentVersion()} may be called by any thread.
 */
public final class VersionClock {
    /** Versions per second of wall time, as in FoundationDB ({@code VERSIONS_PER_SECOND}). */
    public static final long VERSIONS_PER_SECOND = 1_000_000L;
    /** FoundationDB's {@code MAX_READ_TRANSACTION_LIFE_VERSIONS}: the 5 s MVCC window. */
    public static final long MAX_READ_TRANSACTION_LIFE_VERSIONS = 5 * VERSIONS_PER_SECOND;

    private final LongSupplier nanoTime;
    private final long startNanos;
    private final long base;
    private volatile long lastCommitVersion;

    /**
     * @param nanoTime a monotonic time source in nanoseconds ({@code System::nanoTime} in production,
     *                 a settable clock in tests)
     * @param base     the version at time zero; every version handed out is greater than it
     */
    public VersionClock(LongSupplier nanoTime, long base) {
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
        this.base = base;
        this.lastCommitVersion = base;
    }

    /** The version that corresponds to "now"; never less than the last commit version. */
    public long currentVersion() {
        long timeVersion = base + (nanoTime.getAsLong() - startNanos) / 1_000L;
        return Math.max(timeVersion, lastCommitVersion);
    }

    /** The next commit version: at least "now", and strictly greater than every earlier one. */
    public long nextCommitVersion() {
        long v = Math.max(currentVersion(), lastCommitVersion + 1);
        lastCommitVersion = v;
        return v;
    }

    /** The last version returned by {@link #nextCommitVersion()}. */
    public long lastCommitVersion() {
        return lastCommitVersion;
    }
}
