package io.strata.redis.command;

import java.util.concurrent.atomic.LongAdder;

/**
 * One command's counters for {@code INFO commandstats} and {@code LATENCY HISTOGRAM}: calls,
 * total time, calls refused before running (arity, authentication …), calls that answered
 * with an error, and a histogram of durations in power-of-two microsecond buckets.
 *
 * <p>Concurrency: updated by any connection's thread without locks; a reader sees each counter
 * at some recent value (not a snapshot of all at one instant, as in Redis's threaded INFO).
 */
public final class CommandStats {
    /** Buckets: [0,1] µs, then (2^(i-1), 2^i] µs. */
    static final int BUCKETS = 40;

    public final LongAdder calls = new LongAdder();
    public final LongAdder micros = new LongAdder();
    public final LongAdder rejectedCalls = new LongAdder();
    public final LongAdder failedCalls = new LongAdder();
    private final LongAdder[] histogram = new LongAdder[BUCKETS];

    public CommandStats() {
        for (int i = 0; i < BUCKETS; i++) {
            histogram[i] = new LongAdder();
        }
    }

    /** Counts one call that ran for {@code durationMicros}; {@code failed} if it answered with an error. */
    public void called(long durationMicros, boolean failed) {
        called(durationMicros, 1, failed ? 1 : 0);
    }

    /**
     * Counts {@code count} calls that ran for {@code durationMicros} each, {@code failed} of
     * them answering with an error: a pipeline's run of one command, counted at once.
     */
    public void called(long durationMicros, int count, int failed) {
        calls.add(count);
        micros.add(durationMicros * count);
        if (failed > 0) {
            failedCalls.add(failed);
        }
        histogram[bucket(durationMicros)].add(count);
    }

    static int bucket(long micros) {
        if (micros <= 1) {
            return 0;
        }
        return Math.min(BUCKETS - 1, 64 - Long.numberOfLeadingZeros(micros - 1));
    }

    /** The upper bound in microseconds of bucket {@code i}. */
    public static long bucketLimit(int i) {
        return 1L << i;
    }

    public long histogramCount(int i) {
        return histogram[i].sum();
    }

    public static int buckets() {
        return BUCKETS;
    }

    /** Whether INFO shows the command: it ran or was refused at least once. */
    public boolean used() {
        return calls.sum() > 0 || rejectedCalls.sum() > 0 || failedCalls.sum() > 0;
    }
}
