package io.strata.bench.run;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * Clocks of the JVM's own work, read at the ends of a measured interval: the process's CPU
 * time (every thread, garbage collection and the JIT included) and the JIT's compilation time.
 * Each reads 0 on a JVM that does not keep it, so a difference of two readings is then 0 too.
 */
public final class JvmTime {
    private JvmTime() {}

    /** The process's CPU time so far, in ns, from the platform's management bean. */
    public static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return 0;
    }

    /** The JIT's total compilation time so far, in ms. */
    public static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }
}
