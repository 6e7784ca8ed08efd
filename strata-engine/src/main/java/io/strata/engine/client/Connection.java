package io.strata.engine.client;

import java.util.Objects;

/**
 * How a database handle was reached: what FoundationDB's special keys
 * {@code \xff\xff/connection_string} and {@code \xff\xff/cluster_file_path} answer.
 *
 * @param connectionString the connection string the handle was opened with (a Strata one,
 *                         such as {@code strata:memory} or {@code strata:/var/lib/db})
 * @param clusterFilePath  the cluster file it was read from, or null when the database was
 *                         opened without one ({@code Strata.inMemory()}, {@code Strata.open(dir)})
 */
public record Connection(String connectionString, String clusterFilePath) {
    public Connection {
        Objects.requireNonNull(connectionString, "connectionString");
    }

    /** A database opened directly through {@code io.strata.Strata}, with no cluster file. */
    public static Connection direct(String connectionString) {
        return new Connection(connectionString, null);
    }
}
