package io.strata.engine.fault;

import java.time.Duration;

/**
 * Extra delay the engine adds to each request, to reproduce a networked cluster: the time
 * to get a read version, to read, and to commit. Delays never block a thread: the reply is
 * scheduled. Half of the commit delay is spent before the commit reaches the resolver and
 * half after, as the request and the reply each cross the network — so transactions stay
 * open longer and contend the way they would on a cluster.
 *
 * @param readVersionMicros delay of {@code getReadVersion}
 * @param readMicros        delay of each read ({@code get}, {@code getKey}, each range chunk)
 * @param commitMicros      delay of {@code commit}
 */
public record LatencyModel(long readVersionMicros, long readMicros, long commitMicros) {
    private static final LatencyModel NONE = new LatencyModel(0, 0, 0);

    public LatencyModel {
        if (readVersionMicros < 0 || readMicros < 0 || commitMicros < 0) {
            throw new IllegalArgumentException("latencies must be >= 0");
        }
    }

    /** No added latency: the engine at full speed. */
    public static LatencyModel none() {
        return NONE;
    }

    /**
     * A typical small networked cluster: 1 ms to get a read version, 1 ms per read,
     * 4 ms to commit (the proxy batch, resolution and the transaction logs' fsync).
     */
    public static LatencyModel cluster() {
        return new LatencyModel(1_000, 1_000, 4_000);
    }

    public static LatencyModel of(Duration readVersion, Duration read, Duration commit) {
        return new LatencyModel(readVersion.toNanos() / 1_000, read.toNanos() / 1_000, commit.toNanos() / 1_000);
    }

    public boolean isNone() {
        return readVersionMicros == 0 && readMicros == 0 && commitMicros == 0;
    }
}
