package io.strata.bench.memory;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The heap the live objects take: {@link MemoryMXBean#getHeapMemoryUsage() used} heap right
 * after full collections, repeated until it settles.
 *
 * <p>One collection is not always enough: objects that became unreachable only when a
 * reference was cleared or a cleaner ran in the collection before go in the next one. So the
 * gauge collects, reads, and collects again until two readings are within
 * {@link #SETTLED_BYTES}, at most {@link #MAX_COLLECTIONS} times. The engine's own threads (the
 * sequencer's idle ticks) still allocate a little between readings; the tolerance covers them.
 *
 * <p>{@code System.gc()} must run a full, stop-the-world collection: the JVM options
 * {@code -XX:+DisableExplicitGC} (nothing happens) and {@code -XX:+ExplicitGCInvokesConcurrent}
 * (a concurrent cycle; the reading after it could include garbage) are refused by
 * {@link #requireFullCollections}.
 */
final class HeapGauge {
    /** Two readings this close count as settled: 1 MiB, a byte per pair at a million pairs. */
    static final long SETTLED_BYTES = 1 << 20;
    /** Enough for reference processing to finish; more would only wait on background allocation. */
    static final int MAX_COLLECTIONS = 8;

    private HeapGauge() {}

    /** Bytes of heap in use after full collections, once two readings agree. */
    static long usedAfterFullGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long previous = Long.MIN_VALUE;
        long used = 0;
        for (int i = 0; i < MAX_COLLECTIONS; i++) {
            memory.gc();
            used = memory.getHeapMemoryUsage().getUsed();
            if (previous != Long.MIN_VALUE && Math.abs(used - previous) < SETTLED_BYTES) {
                break;
            }
            previous = used;
        }
        return used;
    }

    /** Throws when {@code System.gc()} would not run a full collection in this JVM. */
    static void requireFullCollections() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        for (String option : new String[] {"DisableExplicitGC", "ExplicitGCInvokesConcurrent"}) {
            if (hotspot != null && Boolean.parseBoolean(hotspot.getVMOption(option).getValue())) {
                throw new IllegalStateException("-XX:+" + option + " is set: System.gc() would not run the full"
                        + " collection this benchmark measures after");
            }
        }
    }

    /** "heap N MiB, collectors, compressed oops on|off": what the figures depend on. */
    static String describe() {
        String collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).collect(Collectors.joining(" + "));
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        String oops = hotspot == null ? "?" : Boolean.parseBoolean(hotspot.getVMOption("UseCompressedOops").getValue()) ? "on" : "off";
        return String.format(Locale.ROOT, "heap %,d MiB, %s, compressed oops %s", Runtime.getRuntime().maxMemory() >> 20,
                collectors, oops);
    }
}
