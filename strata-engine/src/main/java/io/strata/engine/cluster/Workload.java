package io.strata.engine.cluster;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Client-side work the engine has served, for {@code status/json}: transactions started (each
 * read version handed out, as FoundationDB's GRV proxies count them) and reads (each point read,
 * key selector and range batch a transaction issued; FoundationDB's storage servers count the
 * reads that reach them, so reads its client answers from a transaction's own writes are not in
 * its figure, and are in this one).
 *
 * <h2>Concurrency</h2>
 * Counted by the threads that read, so each counter is a {@link LongAdder}: an increment
 * touches a per-thread cell, not a shared line, and costs a few nanoseconds. Read by status.
 *
 * <h2>Rates</h2>
 * FoundationDB reports each counter with its rate ({@code hz}) over the worker's last metrics
 * interval. The engine keeps no timer for that: {@link #rates} measures each rate over the time
 * since an earlier status request at least {@link #MIN_RATE_NANOS} ago — or since the engine
 * started, for the first — so a tool polling status every few seconds sees the rate of each
 * polling interval.
 */
public final class Workload {
    /** The shortest interval a rate is measured over: shorter ones say more about timing noise than load. */
    static final long MIN_RATE_NANOS = 1_000_000_000L;
    /** Samples kept: enough for status polled several times a second. */
    private static final int MAX_SAMPLES = 16;

    private final LongAdder transactionsStarted = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final long startedAtNanos = System.nanoTime();
    /** Earlier status requests, oldest first: {@code [nanos, counter...]}. Guarded by this. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();

    /** A transaction got its read version from the engine. */
    public void transactionStarted() {
        transactionsStarted.increment();
    }

    /** A transaction issued a read (a point read, a key selector, or one batch of a range read). */
    public void read() {
        reads.increment();
    }

    public long transactionsStarted() {
        return transactionsStarted.sum();
    }

    public long reads() {
        return reads.sum();
    }

    /**
     * The rate per second of each of {@code counters} (which must be given in the same order on
     * every call) over the interval since the newest earlier call at least a second before
     * {@code nowNanos}, or since the engine started; then remembers this call.
     */
    public synchronized double[] rates(long nowNanos, long... counters) {
        long[] base = null;
        for (Iterator<long[]> it = samples.descendingIterator(); it.hasNext(); ) {
            long[] s = it.next();
            if (nowNanos - s[0] >= MIN_RATE_NANOS && s.length == counters.length + 1) {
                base = s;
                break;
            }
        }
        long sinceNanos = base != null ? base[0] : startedAtNanos;
        double seconds = Math.max(nowNanos - sinceNanos, 1) / 1e9;
        double[] hz = new double[counters.length];
        for (int i = 0; i < counters.length; i++) {
            hz[i] = (counters[i] - (base != null ? base[i + 1] : 0)) / seconds;
        }
        long[] sample = new long[counters.length + 1];
        sample[0] = nowNanos;
        System.arraycopy(counters, 0, sample, 1, counters.length);
        samples.addLast(sample);
        while (samples.size() > MAX_SAMPLES) {
            samples.removeFirst();
        }
        return hz;
    }
}
