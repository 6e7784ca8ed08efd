package io.strata.engine.durability;

/**
 * When a commit is acknowledged relative to the disk. Chosen when the database is opened.
 */
public enum Durability {
    /**
     * The default. Each commit batch is written to the log and {@code fsync}ed before any of
     * its transactions is acknowledged or becomes visible. Nothing acknowledged is lost, even
     * on power loss. Concurrent commits share one fsync (group commit).
     */
    FSYNC,
    /**
     * Each batch is written to the log (handed to the operating system) before it is
     * acknowledged, but not fsynced. Survives the process being killed ({@code kill -9}, a
     * crash of the JVM): the operating system still writes what it was given. A crash of the
     * operating system or a power cut loses what the OS had not yet written back — on Linux
     * typically up to the last 30 seconds of commits — but never leaves a partly applied
     * transaction: recovery stops at the last complete batch.
     */
    OS_BUFFERED
}
