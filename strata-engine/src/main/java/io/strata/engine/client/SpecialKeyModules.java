package io.strata.engine.client;

import com.apple.foundationdb.KeyValue;
import io.strata.engine.cluster.ProcessInfo;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.util.ByteKeys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The special key space's map as FoundationDB 7.3's client registers it for API version 730:
 * the modules ({@code SpecialKeySpace::moduleToBoundary}) and, inside them, the ranges that
 * answer ({@code DatabaseContext}'s {@code registerSpecialKeysImpl} calls in
 * {@code NativeAPI.actor.cpp}), each with what the engine answers there.
 *
 * <h2>What a single embedded process answers</h2>
 * Where FoundationDB's answer describes the transaction, the connection or the data, the engine
 * gives the same answer from its own state. Where it describes cluster administration, the
 * engine answers what FoundationDB answers for a cluster in the engine's situation — one process,
 * nothing excluded, locked, in maintenance or configured — which is mostly "nothing"; see
 * docs/engine.md for the table. Writes (with {@code special_key_space_enable_writes}) reach the
 * writable ranges FoundationDB has; their commands fail at commit
 * ({@link TransactionSpecialKeys#commitFailure()}).
 */
final class SpecialKeyModules {
    private SpecialKeyModules() {
    }

    /** A module: a range in which one read may move (without {@code special_key_space_relaxed}). */
    record Module(String name, byte[] begin, byte[] end) {
    }

    static final byte[] TRANSACTION = key("/transaction/");
    static final byte[] CONFLICTING_KEYS = key("/transaction/conflicting_keys/");
    static final byte[] READ_CONFLICT_RANGE = key("/transaction/read_conflict_range/");
    static final byte[] WRITE_CONFLICT_RANGE = key("/transaction/write_conflict_range/");
    static final byte[] MANAGEMENT = key("/management/");
    static final byte[] CONFIGURATION = key("/configuration/");
    static final byte[] DD_STATS = key("/metrics/data_distribution_stats/");

    /** The modules, ascending. */
    static final List<Module> MODULES = sorted(List.of(
            prefixModule("transaction", "/transaction/"),
            prefixModule("worker_interfaces", "/worker_interfaces/"),
            singleModule("status_json", "/status/json"),
            singleModule("connection_string", "/connection_string"),
            singleModule("cluster_file_path", "/cluster_file_path"),
            prefixModule("metrics", "/metrics/"),
            prefixModule("management", "/management/"),
            singleModule("error_message", "/error_message"),
            prefixModule("configuration", "/configuration/"),
            prefixModule("global_config", "/global_config/"),
            prefixModule("tracing", "/tracing/"),
            prefixModule("actor_lineage", "/actor_lineage/"),
            prefixModule("actor_profiler_conf", "/actor_profiler_conf/"),
            singleModule("cluster_id", "/cluster_id")));

    /** The management options FoundationDB accepts ({@code SpecialKeySpace::options}). */
    private static final Set<String> MANAGEMENT_OPTION_NAMES = Set.of(
            "excluded/force", "failed/force", "excluded_locality/force", "failed_locality/force", "worker_interfaces/verify");

    static final SpecialKeyImpl MANAGEMENT_OPTIONS = SpecialKeyImpl.writable(
            key("/management/options/"), key("/management/options0"), "options",
            tx -> done(tx.managementOptions()));
    static final SpecialKeyImpl MANAGEMENT_TENANT = SpecialKeyImpl.writable(
            key("/management/tenant/"), key("/management/tenant0"), "tenant", SpecialKeyImpl.nothing());

    /** The registered ranges, ascending and disjoint. */
    static final List<SpecialKeyImpl> IMPLS = sortedImpls(List.of(
            // \xff\xff/error_message: the last management failure of this transaction.
            SpecialKeyImpl.singleKey(key("/error_message"), tx -> done(tx.errorMessage())),
            // Management: nothing is excluded, in progress, locked, suspended or in maintenance,
            // and there are no tenants, so these read empty, as FoundationDB's do then.
            MANAGEMENT_OPTIONS,
            prefixWritable("/management/excluded/", "exclude"),
            prefixWritable("/management/failed/", "exclude failed"),
            prefixWritable("/management/excluded_locality/", "exclude locality"),
            prefixWritable("/management/failed_locality/", "exclude failed locality"),
            SpecialKeyImpl.readOnly(key("/management/in_progress_exclusion/"), key("/management/in_progress_exclusion0"),
                    SpecialKeyImpl.nothing()),
            singleWritable("/management/db_locked", "lock"),
            singleWritable("/management/consistency_check_suspended", "consistencycheck"),
            // CoordinatorsAutoImpl fails when \xff/coordinators is absent, as it is on the engine.
            SpecialKeyImpl.readOnly(key("/management/auto_coordinators"), ByteKeys.keyAfter(key("/management/auto_coordinators")),
                    tx -> CompletableFuture.failedFuture(tx.apiFailure("auto_coordinators", "The coordinator key does not exist"))),
            singleWritable("/management/min_required_commit_version", "advanceversion"),
            singleWritable("/management/version_epoch", "versionepoch"),
            prefixWritable("/management/maintenance/", "maintenance"),
            // DataDistributionImpl always answers the mode: -1 when \xff/dataDistributionMode is absent.
            SpecialKeyImpl.writable(key("/management/data_distribution/"), key("/management/data_distribution0"),
                    "datadistribution",
                    tx -> done(List.of(new KeyValue(key("/management/data_distribution/mode"), ascii("-1"))))),
            MANAGEMENT_TENANT,
            // Configuration: the one process, of no configured class.
            SpecialKeyImpl.writable(key("/configuration/process/class_type/"), key("/configuration/process/class_type0"),
                    "setclass", tx -> done(List.of(new KeyValue(key("/configuration/process/class_type/" + ProcessInfo.ADDRESS),
                            ascii("unset"))))),
            SpecialKeyImpl.readOnly(key("/configuration/process/class_source/"), key("/configuration/process/class_source0"),
                    tx -> done(List.of(new KeyValue(key("/configuration/process/class_source/" + ProcessInfo.ADDRESS),
                            ascii("command_line"))))),
            SpecialKeyImpl.writable(key("/configuration/coordinators/"), key("/configuration/coordinators0"),
                    "coordinators", SpecialKeyModules::coordinators),
            // No global configuration, no tracing, no actor lineage or profiler configuration.
            prefixWritable("/global_config/", "global config"),
            prefixWritable("/tracing/", "configure trace"),
            SpecialKeyImpl.readOnly(key("/actor_lineage/"), key("/actor_lineage0"),
                    tx -> CompletableFuture.failedFuture(tx.apiFailure("read actor_lineage",
                            "the Strata engine samples no actor lineage"))),
            prefixWritable("/actor_profiler_conf/", "actor profiler"),
            // The transaction's conflict ranges.
            SpecialKeyImpl.readOnly(CONFLICTING_KEYS, ByteKeys.concat(CONFLICTING_KEYS, ByteKeys.SYSTEM_END),
                    tx -> {
                        BoundaryMap keys = tx.conflictingKeys();
                        return done(keys == null ? List.of() : keys.rows(CONFLICTING_KEYS,
                                CONFLICTING_KEYS, ByteKeys.concat(CONFLICTING_KEYS, ByteKeys.SYSTEM_END)));
                    }),
            SpecialKeyImpl.readOnly(READ_CONFLICT_RANGE, ByteKeys.concat(READ_CONFLICT_RANGE, ByteKeys.SYSTEM_END),
                    tx -> tx.readConflictRanges().thenApply(map -> map.rows(READ_CONFLICT_RANGE,
                            READ_CONFLICT_RANGE, ByteKeys.concat(READ_CONFLICT_RANGE, ByteKeys.SYSTEM_END)))),
            SpecialKeyImpl.readOnly(WRITE_CONFLICT_RANGE, ByteKeys.concat(WRITE_CONFLICT_RANGE, ByteKeys.SYSTEM_END),
                    tx -> done(tx.writeConflictRanges().rows(WRITE_CONFLICT_RANGE,
                            WRITE_CONFLICT_RANGE, ByteKeys.concat(WRITE_CONFLICT_RANGE, ByteKeys.SYSTEM_END)))),
            // Metrics: per-shard sizes; no health entries (see the docs).
            SpecialKeyImpl.readOnly(DD_STATS, ByteKeys.concat(DD_STATS, ByteKeys.SYSTEM_END), SpecialKeyModules::shardStats),
            SpecialKeyImpl.readOnly(key("/metrics/health/"), key("/metrics/health0"), SpecialKeyImpl.nothing()),
            // No worker exposes an interface to reboot or profile.
            SpecialKeyImpl.readOnly(key("/worker_interfaces/"), key("/worker_interfaces0"), SpecialKeyImpl.nothing()),
            SpecialKeyImpl.singleKey(key("/status/json"), StatusJson::of),
            SpecialKeyImpl.singleKey(key("/cluster_file_path"), tx -> done(ascii(clusterFilePath(tx.database())))),
            SpecialKeyImpl.singleKey(key("/connection_string"),
                    tx -> done(tx.database().connection().connectionString().getBytes(StandardCharsets.UTF_8))),
            SpecialKeyImpl.singleKey(key("/cluster_id"), tx -> done(ascii(tx.engine().process().clusterId())))));

    /**
     * {@code \xff\xff/cluster_file_path}: the connection record's location — the cluster file's
     * path, or for a database opened without one, FoundationDB's in-memory record's ID (a
     * random {@code UID} per database handle, {@code ClusterConnectionMemoryRecord::getLocation}).
     */
    static String clusterFilePath(EngineDatabase db) {
        String path = db.connection().clusterFilePath();
        return path != null ? path : db.connectionRecordId();
    }

    /** Whether {@code key} names a management option FoundationDB knows. */
    static boolean isManagementOption(byte[] key) {
        byte[] prefix = MANAGEMENT_OPTIONS.begin();
        if (key.length < prefix.length || ByteKeys.compare(java.util.Arrays.copyOf(key, prefix.length), prefix) != 0) {
            return false;
        }
        return MANAGEMENT_OPTION_NAMES.contains(new String(key, prefix.length, key.length - prefix.length, StandardCharsets.ISO_8859_1));
    }

    /**
     * {@code \xff\xff/configuration/coordinators/}: {@code CoordinatorsImpl} answers the
     * connection string's description (its text before {@code ':'}, {@code clusterKeyName}) and
     * the coordinators, here the one process.
     */
    private static CompletableFuture<List<KeyValue>> coordinators(TransactionSpecialKeys tx) {
        String cs = tx.database().connection().connectionString();
        int colon = cs.indexOf(':');
        String description = colon >= 0 ? cs.substring(0, colon) : cs;
        return done(List.of(
                new KeyValue(key("/configuration/coordinators/cluster_description"), description.getBytes(StandardCharsets.UTF_8)),
                new KeyValue(key("/configuration/coordinators/processes"), ascii(ProcessInfo.ADDRESS))));
    }

    /**
     * {@code \xff\xff/metrics/data_distribution_stats/}: one row per shard of the engine's shard
     * map at the newest version, keyed by the shard's begin, valued with FoundationDB's JSON
     * ({@code ddMetricsGetRangeActor}) — {@code shard_bytes} only: the engine does not measure a
     * shard's write bandwidth ({@code shard_bytes_per_ksecond}).
     */
    private static CompletableFuture<List<KeyValue>> shardStats(TransactionSpecialKeys tx) {
        ShardMap.Shards shards = tx.engine().shards().at(tx.engine().pipeline().visibleVersion());
        List<KeyValue> rows = new ArrayList<>(shards.count());
        for (int i = 0; i < shards.count(); i++) {
            String json = new io.strata.engine.cluster.JsonWriter().beginObject()
                    .field("shard_bytes", shards.bytes()[i]).endObject().toString();
            rows.add(new KeyValue(ByteKeys.concat(DD_STATS, shards.begins().get(i)), ascii(json)));
        }
        return done(rows);
    }

    private static SpecialKeyImpl prefixWritable(String prefix, String command) {
        return SpecialKeyImpl.writable(key(prefix), strinc(key(prefix)), command, SpecialKeyImpl.nothing());
    }

    private static SpecialKeyImpl singleWritable(String name, String command) {
        byte[] k = key(name);
        return SpecialKeyImpl.writable(k, ByteKeys.keyAfter(k), command, SpecialKeyImpl.nothing());
    }

    private static Module prefixModule(String name, String prefix) {
        return new Module(name, key(prefix), strinc(key(prefix)));
    }

    private static Module singleModule(String name, String suffix) {
        byte[] k = key(suffix);
        return new Module(name, k, ByteKeys.keyAfter(k));
    }

    /** The prefix's end for a prefix ending in {@code '/'}: FoundationDB writes these ends with {@code '0'}. */
    private static byte[] strinc(byte[] prefix) {
        byte[] end = prefix.clone();
        end[end.length - 1]++;
        return end;
    }

    /** {@code \xff\xff} followed by {@code suffix}. */
    static byte[] key(String suffix) {
        return ByteKeys.concat(ByteKeys.SYSTEM_END, suffix.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    private static List<Module> sorted(List<Module> modules) {
        List<Module> out = new ArrayList<>(modules);
        out.sort(Comparator.comparing(Module::begin, ByteKeys.COMPARATOR));
        return List.copyOf(out);
    }

    private static List<SpecialKeyImpl> sortedImpls(List<SpecialKeyImpl> impls) {
        List<SpecialKeyImpl> out = new ArrayList<>(impls);
        out.sort(Comparator.comparing(SpecialKeyImpl::begin, ByteKeys.COMPARATOR));
        for (int i = 1; i < out.size(); i++) {
            if (ByteKeys.compare(out.get(i - 1).end(), out.get(i).begin()) > 0) {
                throw new IllegalStateException("overlapping special key ranges at " + ByteKeys.printable(out.get(i).begin()));
            }
        }
        return List.copyOf(out);
    }
}
