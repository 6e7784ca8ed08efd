package io.strata.engine.cluster;

import java.security.SecureRandom;

/**
 * The identity of the engine's single process, fixed when the engine starts: the IDs
 * FoundationDB gives a cluster, a process and its roles, in FoundationDB's {@code UID} text form
 * (32 lowercase hex digits, {@code UID::toString}), the address it reports, and its start time.
 *
 * <p>The engine listens on no port, so its address is the loopback address with port 0: it
 * identifies the process in {@code status/json} and in the special keys that list processes,
 * and no tool can connect to it. The cluster ID is new at every start of the engine; a
 * FoundationDB cluster keeps its ID for life (docs/engine.md, known differences).
 */
public final class ProcessInfo {
    /** The address the process reports: loopback, port 0 (nothing listens). */
    public static final String ADDRESS = "127.0.0.1:0";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String clusterId = uid();
    private final String processId = uid();
    private final String machineId = uid();
    private final String storageId = uid();
    private final long storageIdHigh;
    private final long storageIdLow;
    private final String logId = uid();
    private final String sequencerId = uid();
    private final long startedAtMillis = System.currentTimeMillis();
    private final long startedAtNanos = System.nanoTime();

    public ProcessInfo() {
        storageIdHigh = Long.parseUnsignedLong(storageId.substring(0, 16), 16);
        storageIdLow = Long.parseUnsignedLong(storageId.substring(16), 16);
    }

    /** A random 128-bit ID as FoundationDB prints a {@code UID}: two 64-bit halves, 16 hex digits each. */
    public static String uid() {
        return String.format("%016x%016x", RANDOM.nextLong(), RANDOM.nextLong());
    }

    /** {@code \xff\xff/cluster_id}. */
    public String clusterId() {
        return clusterId;
    }

    public String processId() {
        return processId;
    }

    public String machineId() {
        return machineId;
    }

    /** The storage role's ID: the one storage server every shard lives on. */
    public String storageId() {
        return storageId;
    }

    /** The two halves of {@link #storageId()}, as FoundationDB serializes a {@code UID}. */
    public long storageIdHigh() {
        return storageIdHigh;
    }

    public long storageIdLow() {
        return storageIdLow;
    }

    /** The log role's ID (only a database with a commit log has that role). */
    public String logId() {
        return logId;
    }

    /** The ID of the sequencer, which plays FoundationDB's master, proxies and resolver at once. */
    public String sequencerId() {
        return sequencerId;
    }

    /** Wall-clock time the engine started, in milliseconds since the epoch. */
    public long startedAtMillis() {
        return startedAtMillis;
    }

    /** Seconds since the engine started, from the monotonic clock. */
    public double uptimeSeconds() {
        return (System.nanoTime() - startedAtNanos) / 1e9;
    }

    /**
     * The engine's version: the jar manifest's, or {@code development} when it runs from
     * classes (a build without a manifest).
     */
    public static String version() {
        String v = ProcessInfo.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }
}
