package io.strata.cli.bench;

import com.apple.foundationdb.Database;
import io.strata.Storage;
import io.strata.cli.StorageOptions;
import io.strata.cli.serve.ServeRedisCommand;
import io.strata.bench.redis.MemoryPerKey;
import io.strata.bench.redis.RedisBenchmark;
import io.strata.bench.redis.RedisPeer;
import io.strata.bench.redis.SetAlgebraRun;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.server.LeakDetection;
import io.strata.redis.server.RedisServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * {@code strata bench redis}: Strata's Redis-compatible server (durable, fsync before each
 * reply) against Redis 7.0 in the same run — with {@code appendfsync always} (durable vs
 * durable) and with its defaults — through Redis's own {@code redis-benchmark}; then set
 * algebra over two big sets and memory per key.
 */
@Command(name = "redis",
        mixinStandardHelpOptions = true,
        description = {
                "Compare Strata's Redis-compatible server (durable: fsync before each reply) with Redis in the same run:",
                "  redis-benchmark at --clients clients, unpipelined and with -P --pipeline, for --tests;",
                "  against Redis with appendfsync always (durable vs durable) and with Redis's defaults;",
                "  SINTERCARD, SINTERSTORE, SUNIONSTORE, SINTER over two sets of --set-members members (half shared);",
                "  memory per key for --memory-keys string keys of 100-byte values (Strata's right after the writes, and",
                "  6 s later, once they left the engine's 5 s MVCC window).",
                "Needs Redis 7.0's redis-server, redis-benchmark and redis-cli on the PATH",
                "(Debian/Ubuntu: apt-get install -y redis-server redis-tools).",
                "Strata's database is new unless --dir names one; --storage ssd runs it on the disk storage engine."},
        footer = {"", "Output: a table on stdout and redis.csv in --out."})
public final class BenchRedisCommand implements Callable<Integer> {
    @Option(names = "--tests", split = ",", defaultValue = "set,get,incr,lpush,sadd,hset,zadd,mset",
            description = "redis-benchmark tests (default: ${DEFAULT-VALUE}).")
    List<String> tests;

    @Option(names = "--clients", defaultValue = "50", description = "Concurrent clients (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--requests", defaultValue = "100000", description = "Requests per test, unpipelined (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--pipeline", defaultValue = "16", description = "Pipeline depth of the pipelined runs (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Option(names = "--warmup-rounds", defaultValue = "3", paramLabel = "N",
            description = "Untimed rounds of every test, in both shapes and at the timed runs' sizes, against Strata's"
                    + " server before it is timed: its JIT compiles the hot paths over a few million requests"
                    + " (Redis needs none) (default: ${DEFAULT-VALUE}).")
    int warmupRounds;

    @Option(names = "--keyspace", defaultValue = "0", paramLabel = "N",
            description = "redis-benchmark's -r: keys (and SADD, HSET and ZADD members) drawn at random from N;"
                    + " 0 = one key and one member per test, redis-benchmark's default (default: ${DEFAULT-VALUE}).")
    int keyspace;

    @Option(names = "--set-members", defaultValue = "1000000", description = "Members of each set (0 skips; default: ${DEFAULT-VALUE}).")
    int setMembers;

    @Option(names = "--repeat", defaultValue = "3", description = "Runs of each set operation; the median is reported (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--memory-keys", defaultValue = "100000", description = "Keys for memory per key (0 skips; default: ${DEFAULT-VALUE}).")
    int memoryKeys;

    @Option(names = "--dir", description = "Directory for Strata's durable database (default: a temporary directory, removed after).")
    Path dir;

    @Option(names = "--port", defaultValue = "7379", description = "First of three ports used (Strata, Redis always, Redis default) (default: ${DEFAULT-VALUE}).")
    int port;

    @picocli.CommandLine.Mixin
    OutputOption output;

    @picocli.CommandLine.Mixin
    StorageOptions storageOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private final Map<String, Map<String, Double>> table = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (warmupRounds < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--warmup-rounds must be 0 or more (got " + warmupRounds + ")");
        }
        if (keyspace < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--keyspace must be 0 or more (got " + keyspace + ")");
        }
        LeakDetection.offUnlessConfigured();
        List<String> missing = RedisPeer.missingPrograms();
        if (!missing.isEmpty()) {
            System.err.println("strata bench redis: " + String.join(", ", missing) + " not found on the PATH; it needs Redis 7.0 "
                    + "(Debian/Ubuntu: apt-get install -y redis-server redis-tools)");
            return 2;
        }
        if (storageOptions.conflict() != null) {
            System.err.println("strata bench redis: " + storageOptions.conflict());
            return 2;
        }
        Path dataDir = dir != null ? dir : Files.createTempDirectory("strata-bench-redis-data-");
        Database db;
        try {
            db = storageOptions.builder().mvccWindow(ServeRedisCommand.MVCC_WINDOW).open(dataDir.resolve("db"));
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            System.err.println("strata bench redis: " + e.getMessage());
            if (dir == null) {
                deleteTree(dataDir);
            }
            return 1;
        }
        String storage = StorageOptions.of(db).map(Storage::label).orElse("?");
        System.out.printf(Locale.ROOT, "# strata bench redis: %d clients, %d requests, -P %d, %s; Strata storage %s, MVCC window %s,"
                        + " %d warm-up rounds; Redis %s; %d cores, Java %s%n",
                clients, requests, pipeline, keyspace == 0 ? "one key per test" : String.format(Locale.ROOT, "-r %,d", keyspace),
                storage, ServeRedisCommand.MVCC_WINDOW.label(), warmupRounds, RedisPeer.version(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        try (db;
             RedisServer strata = RedisServer.start(db, RedisConfig.defaults().withPort(port).withStorage(storage));
             RedisPeer always = RedisPeer.start(RedisPeer.Mode.DURABLE, port + 1);
             RedisPeer defaults = RedisPeer.start(RedisPeer.Mode.DEFAULT, port + 2)) {
            Map<String, Integer> servers = new LinkedHashMap<>();
            servers.put("strata", strata.port());
            servers.put(RedisPeer.Mode.DURABLE.label, always.port());
            servers.put(RedisPeer.Mode.DEFAULT.label, defaults.port());
            // The JVM compiles the server's hot paths during its first requests — measured: pipelined
            // LPUSH at 234k/s after 2 M requests, 396k-414k/s after 4-6 M — so it is warmed before
            // timing, in both shapes measured (unpipelined requests take other paths than pipelines).
            for (int round = 0; round < warmupRounds; round++) {
                RedisBenchmark.run(strata.port(), clients, requests, 1, tests, keyspace);
                RedisBenchmark.run(strata.port(), clients, requests * 4, pipeline, tests, keyspace);
            }
            // Each server's CPU over each test, per request: what the throughput rows cost, and the
            // ceiling on two cores that redis-benchmark shares (docs/benchmarks.md, section 12).
            // Strata's is this JVM's, every thread (GC and JIT included); the bench itself idles
            // meanwhile, waiting on redis-benchmark.
            Map<String, LongSupplier> cpu = new LinkedHashMap<>();
            cpu.put("strata", BenchRedisCommand::processCpuNanos);
            cpu.put(RedisPeer.Mode.DURABLE.label, always::cpuNanos);
            cpu.put(RedisPeer.Mode.DEFAULT.label, defaults::cpuNanos);
            Map<String, Map<String, Double>> cpuRows = new LinkedHashMap<>();
            for (int p : new int[] {1, pipeline}) {
                int n = p == 1 ? requests : requests * 4;
                for (Map.Entry<String, Integer> s : servers.entrySet()) {
                    for (String test : tests) {
                        long before = cpu.get(s.getKey()).getAsLong();
                        Map<String, RedisBenchmark.Result> r = RedisBenchmark.run(s.getValue(), clients, n, p, List.of(test), keyspace);
                        long after = cpu.get(s.getKey()).getAsLong();
                        for (RedisBenchmark.Result row : r.values()) {
                            String name = row.test() + (p == 1 ? "" : " -P " + p);
                            put(name, s.getKey(), row.requestsPerSecond());
                            if (before >= 0 && after >= 0) {
                                cpuRows.computeIfAbsent(name + " cpu ns", k -> new LinkedHashMap<>())
                                        .put(s.getKey(), (double) (after - before) / n);
                            }
                        }
                    }
                }
            }
            cpuRows.forEach((row, values) -> values.forEach((server, v) -> put(row, server, v)));
            if (setMembers > 0) {
                for (Map.Entry<String, Integer> s : servers.entrySet()) {
                    if (s.getKey().equals(RedisPeer.Mode.DEFAULT.label)) {
                        continue;
                    }
                    double load = SetAlgebraRun.load(s.getValue(), setMembers);
                    put("sadd load (s)", s.getKey(), load);
                    SetAlgebraRun.time(s.getValue(), setMembers, repeat).forEach((op, secs) -> put(op + " (s)", s.getKey(), secs));
                }
            }
            if (memoryKeys > 0) {
                // Strata's again 6 s later, once the writes left the engine's 5 s MVCC window.
                MemoryPerKey.PerKey strataBytes = MemoryPerKey.measure(strata.port(), memoryKeys, MemoryPerKey::heapAfterGc, 6_000);
                MemoryPerKey.PerKey redisBytes = MemoryPerKey.measure(always.port(), memoryKeys,
                        () -> MemoryPerKey.redisUsedMemory(always.port()), 0);
                put("bytes/key", "strata", strataBytes.settled());
                put("bytes/key", RedisPeer.Mode.DURABLE.label, redisBytes.settled());
                put("bytes/key in window", "strata", strataBytes.rightAfter());
                put("bytes/key in window", RedisPeer.Mode.DURABLE.label, redisBytes.rightAfter());
            }
        } finally {
            if (dir == null) {
                deleteTree(dataDir);
            }
        }
        print();
        return 0;
    }

    /** This JVM's CPU time, every thread, in nanoseconds; -1 where the JVM does not tell it. */
    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    private void put(String row, String server, double value) {
        table.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(server, value);
    }

    private void print() throws IOException {
        String always = RedisPeer.Mode.DURABLE.label;
        String defaults = RedisPeer.Mode.DEFAULT.label;
        System.out.printf(Locale.ROOT, "%-22s %12s %14s %8s %14s %8s%n", "test", "strata", always, "ratio", defaults, "ratio");
        Files.createDirectories(output.out);
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(output.out.resolve("redis.csv")))) {
            csv.println("test,strata," + always + "," + defaults);
            for (Map.Entry<String, Map<String, Double>> row : table.entrySet()) {
                Map<String, Double> v = row.getValue();
                boolean lowerIsBetter = row.getKey().endsWith("(s)") || row.getKey().startsWith("bytes")
                        || row.getKey().endsWith(" cpu ns");
                System.out.printf(Locale.ROOT, "%-22s %12s %14s %8s %14s %8s%n", row.getKey(), fmt(v.get("strata")),
                        fmt(v.get(always)), ratio(v.get("strata"), v.get(always), lowerIsBetter),
                        fmt(v.get(defaults)), ratio(v.get("strata"), v.get(defaults), lowerIsBetter));
                csv.println(row.getKey() + "," + v.get("strata") + "," + v.get(always) + "," + v.get(defaults));
            }
        }
        System.out.println("ratio: how many times better Strata is (throughput ÷ peer's; for seconds, bytes and CPU, peer's ÷ Strata's).");
        System.out.println("cpu ns: the server's CPU time (user and system, every thread) over that test, per request; Redis's in 10 ms ticks.");
    }

    private static String fmt(Double d) {
        if (d == null) {
            return "-";
        }
        return d >= 100 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String ratio(Double strata, Double peer, boolean lowerIsBetter) {
        if (strata == null || peer == null || strata == 0 || peer == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2fx", lowerIsBetter ? peer / strata : strata / peer);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var files = Files.walk(root)) {
            List<Path> all = new ArrayList<>();
            files.forEach(all::add);
            all.sort(java.util.Comparator.reverseOrder());
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        }
    }
}
