package io.strata.bench.run;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The scheduling priority of a benchmark's client threads.
 *
 * <h2>Why a benchmark would lower it</h2>
 * Every commit passes through the engine's one sequencer thread. On a machine with fewer
 * cores than busy threads — the 2-core machine with 4 or 8 interning clients — the operating
 * system gives the sequencer the same share of a core as each client, so it waits for a core
 * while holding work every client is waiting for: with 4 clients on 2 cores it was on a core
 * for about 60% of the time it had a batch to apply. {@link #LOW} runs the clients at
 * {@link Thread#MIN_PRIORITY}, below the engine's threads, as a database server is run above the
 * batch loads that feed it; the engine itself is unchanged.
 *
 * <h2>What makes it effective</h2>
 * On Linux, HotSpot ignores Java thread priorities unless the JVM runs with
 * {@code -XX:ThreadPriorityPolicy=1}; then {@link Thread#MIN_PRIORITY} is nice 4, which any
 * user may set on their own threads (only raising a priority needs privileges; HotSpot warns
 * about that when not run as root, but lowering works). {@link #effective()} tells whether a
 * requested priority would be applied.
 */
public enum ClientPriority {
    /** The JVM's default for new threads: the same share of the cores as the engine's threads. */
    NORMAL(Thread.NORM_PRIORITY),
    /** {@link Thread#MIN_PRIORITY}: the engine's threads run first when a core is contended. */
    LOW(Thread.MIN_PRIORITY);

    private final int javaPriority;

    ClientPriority(int javaPriority) {
        this.javaPriority = javaPriority;
    }

    /** The {@link Thread#setPriority} value. */
    public int javaPriority() {
        return javaPriority;
    }

    /** {@code normal} or {@code low}, in any case. */
    public static ClientPriority parse(String name) {
        for (ClientPriority p : values()) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown client priority: " + name + " [normal, low]");
    }

    /** Lower-case name, as the command line spells it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether this JVM applies Java thread priorities to the operating system's threads: on
     * HotSpot, when {@code ThreadPriorityPolicy} is 1 (the default, 0, applies none on Linux);
     * false when the option cannot be read (another JVM).
     */
    public static boolean effective() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot != null && "1".equals(hotspot.getVMOption("ThreadPriorityPolicy").getValue());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return false;
        }
    }
}
