package io.strata.redis.command;

/**
 * Redis's {@code instantaneous_ops_per_sec} and {@code instantaneous_*_kbps}: the server
 * samples its counters every 100 ms ({@link #sample}) and reports the mean rate over the last
 * 16 samples.
 *
 * <p>Concurrency: {@link #sample} runs on one scheduler thread; readers take the monitor too.
 */
public final class InstantaneousRates {
    private static final int SAMPLES = 16;

    private final ServerStats stats;
    private final long[][] rates = new long[3][SAMPLES];
    private final long[] last = new long[3];
    private long lastNanos;
    private int next;

    InstantaneousRates(ServerStats stats) {
        this.stats = stats;
    }

    /** Records the counters' change since the previous sample. */
    public synchronized void sample(long nowNanos) {
        long[] current = {stats.commandsProcessed.sum(), stats.netInputBytes.sum(), stats.netOutputBytes.sum()};
        if (lastNanos != 0 && nowNanos > lastNanos) {
            long elapsed = nowNanos - lastNanos;
            for (int i = 0; i < 3; i++) {
                long delta = Math.max(0, current[i] - last[i]);
                rates[i][next] = delta * 1_000_000_000L / elapsed;
            }
            next = (next + 1) % SAMPLES;
        }
        System.arraycopy(current, 0, last, 0, 3);
        lastNanos = nowNanos;
    }

    public synchronized long opsPerSecond() {
        return mean(0);
    }

    public synchronized double inputKbps() {
        return mean(1) / 1024.0;
    }

    public synchronized double outputKbps() {
        return mean(2) / 1024.0;
    }

    private long mean(int metric) {
        long sum = 0;
        for (long r : rates[metric]) {
            sum += r;
        }
        return sum / SAMPLES;
    }
}
