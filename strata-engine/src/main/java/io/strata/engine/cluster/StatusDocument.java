package io.strata.engine.cluster;

import io.strata.engine.Engine;
import io.strata.engine.commit.CommitCounters;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The document {@code \xff\xff/status/json} answers: FoundationDB's status schema
 * ({@code JSONSchemas::statusSchema} in {@code fdbclient/Schemas.cpp}) filled in for the
 * engine's single process, with the fields tools read. Every value is measured from the engine
 * or follows from how it is built; a field the engine cannot measure is left out, as
 * FoundationDB leaves out what it could not gather, rather than filled with a number.
 *
 * <h2>What the fields say</h2>
 * <ul>
 *   <li>{@code client}: the one coordinator is the process itself, reachable; the cluster file is
 *       the one {@code \xff\xff/cluster_file_path} names, up to date; {@code database_status} is
 *       computed by FoundationDB's rule ({@code getClientDatabaseStatus}).</li>
 *   <li>{@code cluster.processes}: the process with the roles the engine plays — the sequencer
 *       is FoundationDB's master, commit proxy, GRV proxy and resolver in one; the store is the
 *       storage server; a database opened on a directory also has its commit log, the log role.</li>
 *   <li>{@code cluster.data}: sizes from the shard map ({@link ShardMap}) at the newest version;
 *       one replica, nothing moving, healthy.</li>
 *   <li>{@code cluster.workload}: the sequencer's and the clients' counters ({@link CommitCounters},
 *       {@link Workload}) with their rates; {@code roughness} is not kept.</li>
 *   <li>{@code cluster.latency_probe}: probe transactions run for this request, as FoundationDB's
 *       status runs them.</li>
 *   <li>{@code cluster.qos}: the engine throttles nothing and applies every commit to the store
 *       before the version becomes readable, so queues and lags are zero and performance is
 *       limited by the workload.</li>
 * </ul>
 */
public final class StatusDocument {
    private StatusDocument() {
    }

    /**
     * The latency probes' results, in seconds; null where a probe failed, with the reason in
     * {@code failures} (FoundationDB's "Unable to retrieve latency probe information" reasons).
     */
    public record Probes(Double immediateStart, Double defaultStart, Double batchStart, Double read, Double commit,
                         List<String> failures) {
        /** FoundationDB marks the database unavailable when the immediate start, read or commit probe fails. */
        boolean available() {
            return immediateStart != null && read != null && commit != null;
        }
    }

    /**
     * Builds the document.
     *
     * @param engine           the engine described
     * @param connectionString what {@code \xff\xff/connection_string} answers
     * @param clusterFile      what {@code \xff\xff/cluster_file_path} answers
     * @param probes           the latency probes run for this request
     */
    public static String build(Engine engine, String connectionString, String clusterFile, Probes probes) {
        ProcessInfo process = engine.process();
        long version = engine.pipeline().visibleVersion();
        ShardMap.Shards shards = engine.shards().at(version);
        CommitCounters commits = engine.pipeline().counters();
        Workload workload = engine.workload();
        long started = workload.transactionsStarted();
        long reads = workload.reads();
        double[] hz = workload.rates(System.nanoTime(), started, commits.committed(), commits.conflicted(), reads,
                commits.mutations(), commits.mutationBytes());
        long now = System.currentTimeMillis() / 1000;
        boolean available = probes.available();
        boolean durable = engine.durable();

        JsonWriter w = new JsonWriter().beginObject();
        w.name("client").beginObject();
        w.name("coordinators").beginObject()
                .name("coordinators").beginArray()
                .beginObject().field("address", ProcessInfo.ADDRESS).field("reachable", true).endObject()
                .endArray()
                .field("quorum_reachable", true)
                .endObject();
        // getClientDatabaseStatus: available with a quorum, a recovered database and working
        // probes; healthy when, besides, nothing reports a problem (the only possible message here
        // is an incomplete status, which comes with unavailability).
        w.name("database_status").beginObject().field("available", available).field("healthy", available).endObject();
        w.name("messages").beginArray().endArray();
        w.field("timestamp", now);
        w.name("cluster_file").beginObject().field("path", clusterFile).field("up_to_date", true).endObject();
        w.endObject();

        w.name("cluster").beginObject();
        w.name("layers").beginObject().field("_valid", true).endObject();
        w.field("connection_string", connectionString);
        w.field("cluster_controller_timestamp", now);
        w.field("database_available", available);
        w.name("database_lock_state").beginObject().field("locked", false).endObject();
        // A generation is one recovery of the transaction system; the engine's happens when it starts.
        w.field("generation", 1);
        w.name("recovery_state").beginObject()
                .field("name", "fully_recovered")
                .field("description", "Recovery complete.")
                .field("seconds_since_last_recovered", process.uptimeSeconds())
                .field("active_generations", 1)
                .endObject();
        w.field("full_replication", true);
        w.field("degraded_processes", 0);
        w.field("active_tss_count", 0);
        w.name("fault_tolerance").beginObject()
                .field("max_zone_failures_without_losing_availability", 0)
                .field("max_zone_failures_without_losing_data", 0)
                .endObject();
        w.name("incompatible_connections").beginArray().endArray();
        messages(w, probes);
        configuration(w, durable, storageEngine(engine));
        data(w, shards);
        processes(w, engine, shards, version, hz, reads, commits);
        machines(w, process);
        logs(w, engine);
        workload(w, hz, started, commits, reads);
        latencyProbe(w, probes);
        qos(w, hz[0], durable);
        w.endObject();
        return w.endObject().toString();
    }

    private static void messages(JsonWriter w, Probes probes) {
        w.name("messages").beginArray();
        if (!probes.failures().isEmpty()) {
            w.beginObject().field("name", "status_incomplete").field("description", "Unable to retrieve all status information.");
            w.name("reasons").beginArray();
            for (String reason : probes.failures()) {
                w.beginObject().field("description", reason).endObject();
            }
            w.endArray().endObject();
        }
        w.endArray();
    }

    /**
     * FoundationDB's name for the engine's storage: its memory engine (data in memory,
     * recovered from a log) or, over a disk store, its RocksDB engine.
     */
    private static String storageEngine(Engine engine) {
        return engine.store().onDisk() ? "ssd-rocksdb-v1" : "memory";
    }

    private static void configuration(JsonWriter w, boolean durable, String storageEngine) {
        w.name("configuration").beginObject()
                .field("redundancy_mode", "single")
                .field("storage_replicas", 1)
                .field("usable_regions", 1)
                .field("storage_engine", storageEngine)
                .field("coordinators_count", 1)
                .field("commit_proxies", 1)
                .field("grv_proxies", 1)
                .field("resolvers", 1)
                .field("logs", durable ? 1 : 0);
        if (durable) {
            w.field("log_replicas", 1).field("log_engine", "memory");
        }
        w.name("excluded_servers").beginArray().endArray()
                .field("tenant_mode", "disabled")
                .field("blob_granules_enabled", 0)
                .field("encryption_at_rest_mode", "disabled")
                .endObject();
    }

    private static void data(JsonWriter w, ShardMap.Shards shards) {
        w.name("data").beginObject()
                .field("total_kv_size_bytes", shards.totalBytes())
                .field("system_kv_size_bytes", shards.systemBytes())
                .field("partitions_count", shards.count())
                .field("average_partition_size_bytes", shards.totalBytes() / shards.count());
        w.name("moving_data").beginObject()
                .field("in_flight_bytes", 0).field("in_queue_bytes", 0).field("total_written_bytes", 0).field("highest_priority", 0)
                .endObject();
        w.name("state");
        dataState(w);
        w.name("team_trackers").beginArray().beginObject()
                .field("primary", true).field("in_flight_bytes", 0).field("unhealthy_servers", 0);
        w.name("state");
        dataState(w);
        w.endObject().endArray();
        w.endObject();
    }

    private static void dataState(JsonWriter w) {
        w.beginObject().field("healthy", true).field("name", "healthy").field("min_replicas_remaining", 1).endObject();
    }

    private static void processes(JsonWriter w, Engine engine, ShardMap.Shards shards, long version, double[] hz, long reads,
                                  CommitCounters commits) {
        ProcessInfo process = engine.process();
        w.name("processes").beginObject().name(process.processId()).beginObject();
        w.field("address", ProcessInfo.ADDRESS)
                .field("version", ProcessInfo.version())
                .field("machine_id", process.machineId())
                .field("fault_domain", process.machineId())
                .field("class_type", "unset")
                .field("class_source", "command_line")
                .field("excluded", false)
                .field("degraded", false)
                .field("uptime_seconds", process.uptimeSeconds());
        w.name("locality").beginObject()
                .field("machineid", process.machineId())
                .field("processid", process.processId())
                .field("zoneid", process.machineId())
                .endObject();
        w.name("messages").beginArray().endArray();
        Runtime rt = Runtime.getRuntime();
        w.name("memory").beginObject()
                .field("used_bytes", rt.totalMemory() - rt.freeMemory())
                .field("limit_bytes", rt.maxMemory())
                .endObject();
        double cpu = processCpuCores();
        if (cpu >= 0) {
            w.name("cpu").beginObject().field("usage_cores", cpu).endObject();
        }
        w.name("roles").beginArray();
        for (String role : new String[] {"master", "commit_proxy", "grv_proxy", "resolver"}) {
            w.beginObject().field("role", role).field("id", process.sequencerId()).endObject();
        }
        w.beginObject().field("role", "storage").field("id", process.storageId())
                .field("stored_bytes", shards.totalBytes())
                .field("data_version", version);
        if (engine.durable()) {
            w.field("durable_version", version);
            lag(w, "durability_lag");
        }
        lag(w, "data_lag");
        counter(w, "finished_queries", hz[3], reads);
        counter(w, "mutations", hz[4], commits.mutations());
        counter(w, "mutation_bytes", hz[5], commits.mutationBytes());
        w.name("storage_metadata").beginObject().field("storage_engine", storageEngine(engine)).endObject();
        w.endObject();
        if (engine.durable()) {
            w.beginObject().field("role", "log").field("id", process.logId()).field("data_version", version).endObject();
        }
        w.endArray();
        w.endObject().endObject();
    }

    private static void machines(JsonWriter w, ProcessInfo process) {
        String ip = ProcessInfo.ADDRESS.substring(0, ProcessInfo.ADDRESS.indexOf(':'));
        w.name("machines").beginObject().name(process.machineId()).beginObject()
                .field("address", ip)
                .field("machine_id", process.machineId())
                .field("excluded", false)
                .field("contributing_workers", 1)
                .name("locality").beginObject()
                .field("machineid", process.machineId())
                .field("processid", process.processId())
                .field("zoneid", process.machineId())
                .endObject()
                .endObject().endObject();
    }

    private static void logs(JsonWriter w, Engine engine) {
        w.name("logs").beginArray();
        if (engine.durable()) {
            ProcessInfo process = engine.process();
            w.beginObject().field("epoch", 1).field("current", true)
                    .name("log_interfaces").beginArray()
                    .beginObject().field("id", process.logId()).field("healthy", true).field("address", ProcessInfo.ADDRESS).endObject()
                    .endArray()
                    .field("log_replication_factor", 1)
                    .field("log_write_anti_quorum", 0)
                    .field("log_fault_tolerance", 0)
                    .field("possibly_losing_data", false)
                    .endObject();
        }
        w.endArray();
    }

    private static void workload(JsonWriter w, double[] hz, long started, CommitCounters commits, long reads) {
        w.name("workload").beginObject();
        w.name("transactions").beginObject();
        counter(w, "started", hz[0], started);
        counter(w, "committed", hz[1], commits.committed());
        counter(w, "conflicted", hz[2], commits.conflicted());
        w.endObject();
        w.name("operations").beginObject();
        counter(w, "reads", hz[3], reads);
        counter(w, "writes", hz[4], commits.mutations());
        w.endObject();
        w.name("bytes").beginObject();
        counter(w, "written", hz[5], commits.mutationBytes());
        w.endObject();
        w.endObject();
    }

    private static void latencyProbe(JsonWriter w, Probes probes) {
        w.name("latency_probe").beginObject();
        seconds(w, "immediate_priority_transaction_start_seconds", probes.immediateStart());
        seconds(w, "transaction_start_seconds", probes.defaultStart());
        seconds(w, "batch_priority_transaction_start_seconds", probes.batchStart());
        seconds(w, "read_seconds", probes.read());
        seconds(w, "commit_seconds", probes.commit());
        w.endObject();
    }

    private static void qos(JsonWriter w, double startedHz, boolean durable) {
        w.name("qos").beginObject();
        for (String limit : new String[] {"performance_limited_by", "batch_performance_limited_by"}) {
            w.name(limit).beginObject()
                    .field("name", "workload")
                    .field("description", "The database is not being saturated by the workload.")
                    .field("reason_id", 0)
                    .endObject();
        }
        w.field("released_transactions_per_second", startedHz)
                .field("worst_queue_bytes_storage_server", 0)
                .field("limiting_queue_bytes_storage_server", 0)
                .field("worst_queue_bytes_log_server", 0);
        lag(w, "worst_data_lag_storage_server");
        lag(w, "limiting_data_lag_storage_server");
        if (durable) {
            lag(w, "worst_durability_lag_storage_server");
            lag(w, "limiting_durability_lag_storage_server");
        }
        w.endObject();
    }

    private static void lag(JsonWriter w, String name) {
        w.name(name).beginObject().field("versions", 0).field("seconds", 0.0).endObject();
    }

    private static void counter(JsonWriter w, String name, double hz, long counter) {
        w.name(name).beginObject().field("hz", hz).field("counter", counter).endObject();
    }

    private static void seconds(JsonWriter w, String name, Double seconds) {
        if (seconds != null) {
            w.field(name, seconds.doubleValue());
        }
    }

    /** The process's recent CPU use in cores, or -1 when the JVM does not say. */
    private static double processCpuCores() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double load = os.getProcessCpuLoad();
            if (load >= 0) {
                return load * Runtime.getRuntime().availableProcessors();
            }
        }
        return -1;
    }
}
