package io.strata.redis.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Redis's latency monitor: for each kind of event, the times it took at least
 * {@code latency-monitor-threshold} milliseconds (0 turns the monitor off), as LATENCY LATEST,
 * HISTORY, RESET, GRAPH and DOCTOR report them.
 *
 * <p>As in Redis, each event keeps its latest {@link #SAMPLES} samples, one per second (samples
 * of the same second merge into their maximum), and its maximum since it was first recorded or
 * last reset. The events recorded here: {@code command} and {@code fast-command} (a command,
 * flagged {@code fast} or not, that took that long, the time it waited to be served not
 * counted), {@code expire-cycle} (one pass of active expiry) and {@code eviction-cycle} (one
 * round of eviction under {@code maxmemory}). Redis's other events measure its own machinery —
 * forks, AOF writes, the event loop stalling — which this server does not have: its event loop
 * never waits for a command.
 *
 * <p>Concurrency: every method is synchronized; most calls return before taking the lock
 * (an event under the threshold), so only slow events contend for it.
 */
public final class LatencyMonitor {
    /** Samples kept per event (Redis's {@code LATENCY_TS_LEN}). */
    public static final int SAMPLES = 160;

    /** One sample: the second it was taken in (Unix seconds) and the latency in milliseconds. */
    public record Sample(long unixSeconds, long millis) {
    }

    /** An event's samples, oldest first, and its maximum. */
    public record Series(String event, List<Sample> samples, long maxMillis) {
        /** The newest sample. */
        public Sample latest() {
            return samples.get(samples.size() - 1);
        }
    }

    /** Per event, in the order first recorded: its samples (a ring) and maximum. */
    private final Map<String, Ring> events = new LinkedHashMap<>();

    /**
     * Records that {@code event} took {@code millis} at {@code unixSeconds}, if the monitor is
     * on ({@code thresholdMillis} above 0) and it took at least that long.
     */
    public void record(String event, long millis, long thresholdMillis, long unixSeconds) {
        if (thresholdMillis <= 0 || millis < thresholdMillis) {
            return;
        }
        synchronized (this) {
            events.computeIfAbsent(event, e -> new Ring()).add(unixSeconds, millis);
        }
    }

    /** Every event's samples, in the order the events were first recorded. */
    public synchronized List<Series> all() {
        List<Series> out = new ArrayList<>(events.size());
        events.forEach((name, ring) -> out.add(ring.series(name)));
        return out;
    }

    /** One event's samples, or null when it has none. */
    public synchronized Series of(String event) {
        Ring ring = events.get(event);
        return ring == null ? null : ring.series(event);
    }

    /** Forgets every event; returns how many there were. */
    public synchronized int reset() {
        int n = events.size();
        events.clear();
        return n;
    }

    /** Forgets the events named; returns how many of them there were. */
    public synchronized int reset(List<String> names) {
        int n = 0;
        for (String name : names) {
            if (events.remove(name) != null) {
                n++;
            }
        }
        return n;
    }

    /** A ring of {@link #SAMPLES} samples; {@code next} is where the next second's goes. */
    private static final class Ring {
        private final long[] seconds = new long[SAMPLES];
        private final long[] millis = new long[SAMPLES];
        private int next;
        private int size;
        private long max;

        void add(long unixSeconds, long latency) {
            max = Math.max(max, latency);
            int last = (next + SAMPLES - 1) % SAMPLES;
            if (size > 0 && seconds[last] == unixSeconds) {
                millis[last] = Math.max(millis[last], latency);
                return;
            }
            seconds[next] = unixSeconds;
            millis[next] = latency;
            next = (next + 1) % SAMPLES;
            size = Math.min(SAMPLES, size + 1);
        }

        Series series(String event) {
            List<Sample> samples = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int at = (next - size + i + SAMPLES) % SAMPLES;
                samples.add(new Sample(seconds[at], millis[at]));
            }
            return new Series(event, samples, max);
        }
    }
}
