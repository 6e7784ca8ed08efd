package io.strata.redis.commands;

import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandStats;
import io.strata.redis.command.ServerContext;
import io.strata.redis.command.ServerStats;
import io.strata.redis.config.ServerSettings;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes INFO's sections with Redis 7.0's field names, so tools that read them work unchanged.
 * Where Strata differs the fields say so rather than pretend: memory is the JVM heap (the data
 * itself lives in the database, not in this process's memory), persistence reports no RDB or
 * AOF activity because every acknowledged write is already committed to the database
 * ({@code strata_durable:1}; 0 for an in-memory database; {@code strata_storage} names the
 * storage engine, {@code memory} or {@code ssd}, when the server knows it), replication
 * reports a master with no replicas. Lines end with CRLF and sections are separated by an empty line, as in Redis.
 */
final class InfoSections {
    private static final AtomicLong PEAK_MEMORY = new AtomicLong();

    private final ServerContext server;
    private final ServerStats stats;
    private final ServerSettings settings;
    private final SortedMap<Integer, long[]> keyCounts;
    private final StringBuilder out = new StringBuilder(4096);

    InfoSections(ServerContext server, SortedMap<Integer, long[]> keyCounts) {
        this.server = server;
        this.stats = server.stats();
        this.settings = server.settings();
        this.keyCounts = keyCounts;
    }

    String render(Set<String> sections) {
        for (String s : sections) {
            if (out.length() > 0) {
                out.append("\r\n");
            }
            switch (s) {
                case "server": server(); break;
                case "clients": clients(); break;
                case "memory": memory(); break;
                case "persistence": persistence(); break;
                case "stats": stats(); break;
                case "replication": replication(); break;
                case "cpu": cpu(); break;
                case "module_list": header("Modules"); break;
                case "commandstats": commandStats(); break;
                case "errorstats": errorStats(); break;
                case "latencystats": latencyStats(); break;
                case "cluster": header("Cluster"); field("cluster_enabled", 0); break;
                case "keyspace": keyspace(); break;
                default: break;
            }
        }
        return out.toString();
    }

    private void header(String name) {
        out.append("# ").append(name).append("\r\n");
    }

    private void field(String name, Object value) {
        out.append(name).append(':').append(value).append("\r\n");
    }

    private void server() {
        long now = server.clock().getAsLong();
        long uptime = Math.max(0, (System.currentTimeMillis() - stats.startedMillis) / 1000);
        header("Server");
        field("redis_version", ConnectionCommands.REDIS_VERSION);
        field("redis_git_sha1", "00000000");
        field("redis_git_dirty", 0);
        field("redis_build_id", "strata");
        field("redis_mode", "standalone");
        field("os", osName());
        field("arch_bits", System.getProperty("sun.arch.data.model", "64"));
        field("monotonic_clock", "System.nanoTime");
        field("multiplexing_api", "netty");
        field("atomicvar_api", "java");
        field("gcc_version", "0.0.0");
        field("process_id", ProcessHandle.current().pid());
        field("process_supervised", "no");
        field("run_id", server.runId());
        field("tcp_port", settings.get("port"));
        field("server_time_usec", now * 1000);
        field("uptime_in_seconds", uptime);
        field("uptime_in_days", uptime / 86400);
        field("hz", settings.get("hz"));
        field("configured_hz", settings.get("hz"));
        field("lru_clock", (now / 1000) & ((1 << 24) - 1));
        field("executable", ProcessHandle.current().info().command().orElse(""));
        field("config_file", settings.configFile() == null ? "" : Path.of(settings.configFile()).toAbsolutePath());
        field("io_threads_active", 0);
        field("strata_java_version", System.getProperty("java.version"));
    }

    private static String osName() {
        String arch = System.getProperty("os.arch", "");
        if (arch.equals("amd64")) {
            arch = "x86_64";
        }
        return System.getProperty("os.name", "") + " " + System.getProperty("os.version", "") + " " + arch;
    }

    private void clients() {
        header("Clients");
        field("connected_clients", server.clients().size());
        field("cluster_connections", 0);
        field("maxclients", settings.get("maxclients"));
        field("client_recent_max_input_buffer", 0);
        // Redis keeps the largest of the last few seconds; here, the largest now: the replies a client has not taken yet.
        field("client_recent_max_output_buffer",
                server.clients().stream().mapToLong(ClientSession::unsentOutputBytes).max().orElse(0));
        field("blocked_clients", stats.blockedClients.get());
        field("tracking_clients", server.tracking().clientCount());
        field("clients_in_timeout_table", 0);
    }

    private void memory() {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        // What maxmemory measures, where the database can tell (the engine's store: the data
        // with its recent versions); else the JVM heap, which holds the data too.
        long dataset = server.datasetBytes();
        long peak = PEAK_MEMORY.accumulateAndGet(used, Math::max);
        long rss = residentBytes(rt.totalMemory());
        long total = totalSystemMemory();
        long maxmemory = settings.getLong("maxmemory");
        header("Memory");
        field("used_memory", used);
        field("used_memory_human", human(used));
        field("used_memory_rss", rss);
        field("used_memory_rss_human", human(rss));
        field("used_memory_peak", peak);
        field("used_memory_peak_human", human(peak));
        field("used_memory_peak_perc", String.format(Locale.ROOT, "%.2f%%", peak == 0 ? 0 : 100.0 * used / peak));
        field("used_memory_overhead", 0);
        field("used_memory_startup", 0);
        field("used_memory_dataset", dataset >= 0 ? dataset : used);
        field("used_memory_dataset_perc", dataset >= 0 && used > 0
                ? String.format(Locale.ROOT, "%.2f%%", 100.0 * dataset / used) : "100.00%");
        field("allocator_allocated", used);
        field("allocator_active", rt.totalMemory());
        field("allocator_resident", rss);
        field("total_system_memory", total);
        field("total_system_memory_human", human(total));
        field("used_memory_lua", 0);
        field("used_memory_vm_eval", 0);
        field("used_memory_lua_human", "0B");
        long scriptBytes = server.scripts().cache().bodyBytes();
        field("used_memory_scripts_eval", scriptBytes);
        field("number_of_cached_scripts", server.scripts().cache().size());
        field("number_of_functions", 0);
        field("number_of_libraries", 0);
        field("used_memory_vm_functions", 0);
        field("used_memory_vm_total", 0);
        field("used_memory_vm_total_human", "0B");
        field("used_memory_functions", 0);
        field("used_memory_scripts", scriptBytes);
        field("used_memory_scripts_human", human(scriptBytes));
        field("maxmemory", maxmemory);
        field("maxmemory_human", human(maxmemory));
        field("maxmemory_policy", settings.get("maxmemory-policy"));
        field("allocator_frag_ratio", "1.00");
        field("allocator_frag_bytes", 0);
        field("allocator_rss_ratio", "1.00");
        field("allocator_rss_bytes", 0);
        field("rss_overhead_ratio", "1.00");
        field("rss_overhead_bytes", 0);
        field("mem_fragmentation_ratio", String.format(Locale.ROOT, "%.2f", used == 0 ? 1.0 : (double) rss / used));
        field("mem_fragmentation_bytes", rss - used);
        field("mem_not_counted_for_evict", 0);
        field("mem_replication_backlog", 0);
        field("mem_total_replication_buffers", 0);
        field("mem_clients_slaves", 0);
        field("mem_clients_normal", 0);
        field("mem_cluster_links", 0);
        field("mem_aof_buffer", 0);
        field("mem_allocator", "jvm");
        field("active_defrag_running", 0);
        field("lazyfree_pending_objects", 0);
        field("lazyfreed_objects", 0);
        field("strata_heap_max", rt.maxMemory());
    }

    /** The process's resident memory from /proc where there is one, else the JVM's committed heap. */
    private static long residentBytes(long fallback) {
        try {
            String[] statm = Files.readString(Path.of("/proc/self/statm"), StandardCharsets.US_ASCII).trim().split("\\s+");
            return Long.parseLong(statm[1]) * 4096;
        } catch (Exception e) {
            return fallback;
        }
    }

    private static long totalSystemMemory() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getTotalMemorySize();
        }
        return 0;
    }

    /** Redis's {@code bytesToHuman}: B, K, M, G, T, P with two decimals. */
    static String human(long n) {
        double d = n;
        if (n < 1024) {
            return n + "B";
        }
        String[] units = {"K", "M", "G", "T", "P"};
        int u = -1;
        while (d >= 1024 && u < units.length - 1) {
            d /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.2f%s", d, units[u]);
    }

    private void persistence() {
        long lastSave = server.clock().getAsLong() / 1000;
        header("Persistence");
        field("loading", 0);
        field("async_loading", 0);
        field("current_cow_peak", 0);
        field("current_cow_size", 0);
        field("current_cow_size_age", 0);
        field("current_fork_perc", "0.00");
        field("current_save_keys_processed", 0);
        field("current_save_keys_total", 0);
        field("rdb_changes_since_last_save", server.stats().changes.sinceLastSave());
        field("rdb_bgsave_in_progress", 0);
        field("rdb_last_save_time", lastSave);
        field("rdb_last_bgsave_status", "ok");
        field("rdb_last_bgsave_time_sec", -1);
        field("rdb_current_bgsave_time_sec", -1);
        field("rdb_saves", 0);
        field("rdb_last_cow_size", 0);
        field("rdb_last_load_keys_expired", 0);
        field("rdb_last_load_keys_loaded", 0);
        field("aof_enabled", 0);
        field("aof_rewrite_in_progress", 0);
        field("aof_rewrite_scheduled", 0);
        field("aof_last_rewrite_time_sec", -1);
        field("aof_current_rewrite_time_sec", -1);
        field("aof_last_bgrewrite_status", "ok");
        field("aof_rewrites", 0);
        field("aof_rewrites_consecutive_failures", 0);
        field("aof_last_write_status", "ok");
        field("aof_last_cow_size", 0);
        field("module_fork_in_progress", 0);
        field("module_fork_last_cow_size", 0);
        field("strata_durable", settings.durable() ? 1 : 0);
        if (settings.storage() != null) {
            field("strata_storage", settings.storage());
        }
        out.append(settings.durable()
                ? "# Strata: every acknowledged write is committed to the database; there are no RDB or AOF files\r\n"
                : "# Strata: the database is in memory only; data is lost when the server stops\r\n");
    }

    private void stats() {
        header("Stats");
        field("total_connections_received", stats.connectionsReceived.sum());
        field("total_commands_processed", stats.commandsProcessed.sum());
        field("instantaneous_ops_per_sec", stats.rates.opsPerSecond());
        field("total_net_input_bytes", stats.netInputBytes.sum());
        field("total_net_output_bytes", stats.netOutputBytes.sum());
        field("total_net_repl_input_bytes", 0);
        field("total_net_repl_output_bytes", 0);
        field("instantaneous_input_kbps", String.format(Locale.ROOT, "%.2f", stats.rates.inputKbps()));
        field("instantaneous_output_kbps", String.format(Locale.ROOT, "%.2f", stats.rates.outputKbps()));
        field("instantaneous_input_repl_kbps", "0.00");
        field("instantaneous_output_repl_kbps", "0.00");
        field("rejected_connections", stats.rejectedConnections.sum());
        field("sync_full", 0);
        field("sync_partial_ok", 0);
        field("sync_partial_err", 0);
        field("expired_keys", stats.expiredKeys.sum());
        field("expired_stale_perc", "0.00");
        field("expired_time_cap_reached_count", 0);
        field("expire_cycle_cpu_milliseconds", 0);
        field("evicted_keys", stats.evictedKeys.sum());
        field("evicted_clients", 0);
        field("total_eviction_exceeded_time", 0);
        field("current_eviction_exceeded_time", 0);
        field("keyspace_hits", stats.keyspaceHits.sum());
        field("keyspace_misses", stats.keyspaceMisses.sum());
        field("pubsub_channels", 0);
        field("pubsub_patterns", 0);
        field("pubsubshard_channels", 0);
        field("latest_fork_usec", 0);
        field("total_forks", 0);
        field("migrate_cached_sockets", 0);
        field("slave_expires_tracked_keys", 0);
        field("active_defrag_hits", 0);
        field("active_defrag_misses", 0);
        field("active_defrag_key_hits", 0);
        field("active_defrag_key_misses", 0);
        field("total_active_defrag_time", 0);
        field("current_active_defrag_time", 0);
        field("tracking_total_keys", server.tracking().totalKeys());
        field("tracking_total_items", server.tracking().totalItems());
        field("tracking_total_prefixes", server.tracking().totalPrefixes());
        field("unexpected_error_replies", 0);
        field("total_error_replies", stats.totalErrorReplies.sum());
        field("dump_payload_sanitizations", 0);
        field("total_reads_processed", stats.commandsProcessed.sum());
        field("total_writes_processed", stats.commandsProcessed.sum());
        field("io_threaded_reads_processed", 0);
        field("io_threaded_writes_processed", 0);
        field("reply_buffer_shrinks", 0);
        field("reply_buffer_expands", 0);
    }

    private void replication() {
        header("Replication");
        field("role", "master");
        field("connected_slaves", 0);
        field("master_failover_state", "no-failover");
        field("master_replid", server.runId());
        field("master_replid2", "0000000000000000000000000000000000000000");
        field("master_repl_offset", 0);
        field("second_repl_offset", -1);
        field("repl_backlog_active", 0);
        field("repl_backlog_size", settings.get("repl-backlog-size"));
        field("repl_backlog_first_byte_offset", 0);
        field("repl_backlog_histlen", 0);
    }

    private void cpu() {
        long[] ticks = processTicks();
        header("CPU");
        field("used_cpu_sys", seconds(ticks[1]));
        field("used_cpu_user", seconds(ticks[0]));
        field("used_cpu_sys_children", seconds(ticks[3]));
        field("used_cpu_user_children", seconds(ticks[2]));
    }

    /** utime, stime, cutime, cstime of this process in clock ticks (1/100 s) from /proc; the JVM's CPU time as user time elsewhere. */
    private static long[] processTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])};
        } catch (Exception e) {
            java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            long nanos = os instanceof com.sun.management.OperatingSystemMXBean
                    ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0;
            return new long[] {nanos / 10_000_000, 0, 0, 0};
        }
    }

    private static String seconds(long ticks) {
        return String.format(Locale.ROOT, "%d.%06d", ticks / 100, (ticks % 100) * 10_000);
    }

    private void commandStats() {
        header("Commandstats");
        for (Map.Entry<String, CommandStats> e : stats.commands().entrySet()) {
            CommandStats c = e.getValue();
            if (!c.used()) {
                continue;
            }
            long calls = c.calls.sum();
            long micros = c.micros.sum();
            out.append("cmdstat_").append(e.getKey()).append(":calls=").append(calls).append(",usec=").append(micros)
                    .append(",usec_per_call=").append(String.format(Locale.ROOT, "%.2f", calls == 0 ? 0.0 : (double) micros / calls))
                    .append(",rejected_calls=").append(c.rejectedCalls.sum())
                    .append(",failed_calls=").append(c.failedCalls.sum()).append("\r\n");
        }
    }

    private void errorStats() {
        header("Errorstats");
        new java.util.TreeMap<String, LongAdder>(stats.errors()).forEach((code, count) ->
                out.append("errorstat_").append(code).append(":count=").append(count.sum()).append("\r\n"));
    }

    private void latencyStats() {
        header("Latencystats");
        for (Map.Entry<String, CommandStats> e : stats.commands().entrySet()) {
            CommandStats c = e.getValue();
            long calls = c.calls.sum();
            if (calls == 0) {
                continue;
            }
            out.append("latency_percentiles_usec_").append(e.getKey()).append(':');
            String[] names = {"p50", "p99", "p99.9"};
            double[] ranks = {0.50, 0.99, 0.999};
            for (int i = 0; i < names.length; i++) {
                out.append(i == 0 ? "" : ",").append(names[i]).append('=')
                        .append(String.format(Locale.ROOT, "%.3f", (double) percentile(c, ranks[i])));
            }
            out.append("\r\n");
        }
    }

    /** The upper bound of the histogram bucket holding the given rank. */
    private static long percentile(CommandStats c, double rank) {
        long total = 0;
        for (int i = 0; i < CommandStats.buckets(); i++) {
            total += c.histogramCount(i);
        }
        long wanted = (long) Math.ceil(total * rank);
        long seen = 0;
        for (int i = 0; i < CommandStats.buckets(); i++) {
            seen += c.histogramCount(i);
            if (seen >= wanted && seen > 0) {
                return CommandStats.bucketLimit(i);
            }
        }
        return 0;
    }

    private void keyspace() {
        header("Keyspace");
        keyCounts.forEach((db, counts) -> {
            if (counts[0] > 0) {
                out.append("db").append(db).append(":keys=").append(counts[0]).append(",expires=").append(Math.max(0, counts[1]))
                        .append(",avg_ttl=0\r\n");
            }
        });
    }
}
