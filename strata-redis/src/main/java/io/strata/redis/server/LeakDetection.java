package io.strata.redis.server;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's buffer leak detection for a production server. Its default level samples one
 * buffer in 128 and records a stack trace for each; on a pipelined SET that was 1.5% of the
 * server's CPU. Tests keep the default, so a leak still fails them loudly.
 */
public final class LeakDetection {
    private LeakDetection() {
    }

    /**
     * Turns leak detection off unless the JVM was started with Netty's own property for it
     * ({@code -Dio.netty.leakDetection.level=…}), which then decides.
     */
    public static void offUnlessConfigured() {
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
