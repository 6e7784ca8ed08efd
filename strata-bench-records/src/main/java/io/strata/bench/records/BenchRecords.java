package io.strata.bench.records;

import com.apple.foundationdb.record.provider.foundationdb.FDBDatabase;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabaseFactory;
import com.apple.foundationdb.record.provider.foundationdb.FDBStoreTimer;
import io.strata.bench.options.BenchArgs;
import io.strata.bench.run.ClientPriority;
import io.strata.bench.run.ClosedLoop;
import io.strata.bench.run.JvmTime;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * {@code strata bench records}: Apple's Record Layer on Strata — record saves and indexed
 * queries per second, in memory and durable, and where the time goes. Run by
 * {@code ./strata bench records} (strata-cli starts this class in a JVM of its own, on this
 * module's class path: the Record Layer on strata-fdb), or
 * {@code java -jar strata-bench-records/target/strata-bench-records.jar}.
 */
@Command(name = "strata bench records",
        usageHelpWidth = 120,
        version = "strata bench records: Apple's Record Layer 4.1.4.0 on strata-fdb",
        mixinStandardHelpOptions = true,
        description = {
                "Measure Apple's Record Layer 4.1.4.0 on Strata, with the shop store of examples/record-layer",
                "(orders with a value, a compound, a count, a rank and a version index), opened as Record Layer",
                "users open a database: FDBDatabaseFactory.instance().getDatabase(clusterFile), the cluster file",
                "holding strata:memory:NAME (memory) or strata:DIR (durable, fsync per commit batch).",
                "For each database: load --records orders, then, per workload and client count, a closed loop:",
                "  save       one transaction opens the store and saves --batch new orders;",
                "  query      one transaction opens the store and plans and runs: one customer's orders in a",
                "             price window, by price (the compound index; about 10 orders at 100,000 records);",
                "  raw-save, raw-query   the same reads, range reads and writes per transaction as the Record Layer",
                "             issued for save / query (counted by its FDBStoreTimer), straight through fdb-java's",
                "             Database on the same engine: the engine's cost with the Record Layer taken away.",
                "Save and query cells are sampled by Java Flight Recorder; each sample is charged to the code",
                "running (record layer, protobuf, tuples, strata engine, the engine's sequencer spin-waiting for",
                "work, jdk async, other); cpu us = the process's CPU time per transaction (GC and JIT included);",
                "jit ms = time the JIT compiled during the cell (should be near 0: else the cell measured a warming JVM)."},
        footer = {"",
                "Output: a table, and --out/records.csv (columns " + BenchRecords.CSV_HEADER + ")."})
public final class BenchRecords implements Callable<Integer> {
    static final String CSV_FILE = "records.csv";
    static final String CSV_HEADER = "database,workload,clients,batch,seconds,transactions,transactions_per_s,"
            + "records_per_s,p50_us,p99_us,retries,errors,cpu_us_per_transaction,jit_ms,record_layer,protobuf,tuples,"
            + "engine,engine_spin,jdk,other,samples,kv_per_transaction";
    static final List<String> DATABASES = List.of("memory", "durable");
    static final List<String> WORKLOADS = List.of("save", "query", "raw-save", "raw-query");
    /** Transactions of the untimed pass that counts what each kind of transaction issues. */
    static final int COUNTING_TRANSACTIONS = 200;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "5", description = "Measured time per cell (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "3", description = "Warm-up per cell (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--clients", paramLabel = "N[,N...]", hideParamSyntax = true, split = ",", defaultValue = "1,16",
            description = "Concurrent clients (threads), one cell each (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--databases", paramLabel = "D[,D...]", hideParamSyntax = true, split = ",", defaultValue = "memory,durable",
            description = "memory, durable (default: ${DEFAULT-VALUE}).")
    List<String> databases;

    @Option(names = "--workloads", paramLabel = "W[,W...]", hideParamSyntax = true, split = ",",
            defaultValue = "save,query,raw-save,raw-query",
            description = "save, query, raw-save, raw-query (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

    @Option(names = "--records", paramLabel = "N", defaultValue = "100000",
            description = "Orders loaded before the cells (default: ${DEFAULT-VALUE}).")
    int records;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1",
            description = "Orders saved per save transaction (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--jit-warmup", paramLabel = "S", defaultValue = "120",
            description = "Before the first database: saves and queries on a throwaway in-memory store until the JIT "
                    + "compiles for less than 2%% of a 5 s slice, or for at most this long (default: ${DEFAULT-VALUE}).")
    double jitWarmup;

    @Option(names = "--completion", paramLabel = "C", defaultValue = "fdb_java",
            description = "How strata-fdb's futures complete: fdb_java (on the executor, as fdb-java's; the default for "
                    + "every strata-fdb database) or immediate (the connection string's ?completion=immediate: as soon as "
                    + "the engine knows the answer) (default: ${DEFAULT-VALUE}).")
    String completion;

    @Option(names = "--no-profile", negatable = false, description = "Do not sample with Java Flight Recorder.")
    boolean noProfile;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Where the durable database is made (a fresh subdirectory, removed afterwards; default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Directory for " + CSV_FILE + " (default: ${DEFAULT-VALUE}).")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchRecords()).execute(args));
    }

    private void validate() {
        BenchArgs.requireTiming(spec, seconds, warmup);
        BenchArgs.requireCounts(spec, clients, 1_024, "--clients must be between 1 and 1024");
        BenchArgs.requireKnown(spec, databases, DATABASES, "database");
        BenchArgs.requireKnown(spec, List.of(completion), List.of("fdb_java", "immediate"), "completion");
        BenchArgs.requireKnown(spec, workloads, WORKLOADS, "workload");
        BenchArgs.requireNotNegative(spec, jitWarmup, "--jit-warmup");
        if (records < 1_000 || batch < 1 || batch > 1_000) {
            throw BenchArgs.usage(spec, "--records must be >= 1000 and --batch between 1 and 1000");
        }
    }

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter o = spec.commandLine().getOut();
        o.printf("strata bench records: %s; %,d orders loaded; clients %s; %d order(s) per save; %.1f s cells after %.1f s warm-up; %d cores, Java %s%n",
                String.join(",", databases), records, clients, batch, seconds, warmup,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        Files.createDirectories(out);
        List<Cell> cells = new ArrayList<>();
        if (jitWarmup > 0) {
            warmUp(o);
        }
        for (String database : databases) {
            runDatabase(database, o, cells);
        }
        printSplit(o, cells);
        List<String> csv = new ArrayList<>();
        csv.add(CSV_HEADER);
        cells.forEach(c -> csv.add(c.csv(batch)));
        Files.write(out.resolve(CSV_FILE), csv);
        o.println();
        o.println("wrote " + out.resolve(CSV_FILE));
        o.flush();
        return 0;
    }

    private void runDatabase(String database, PrintWriter o, List<Cell> cells) throws IOException {
        Path work = Files.createDirectories(dir).resolve("records-" + database + "-" + ProcessHandle.current().pid());
        Files.createDirectories(work);
        String connection = database.equals("memory")
                ? "strata:memory:strata-bench-records-" + ProcessHandle.current().pid()
                : "strata:" + work.resolve("db").toAbsolutePath();
        Path clusterFile = Files.writeString(work.resolve("fdb.cluster"), connection + "?completion=" + completion + "\n");
        FDBDatabase db = FDBDatabaseFactory.instance().getDatabase(clusterFile.toString());
        try {
            RecordsWorkload w = new RecordsWorkload(db);
            o.println();
            long t0 = System.nanoTime();
            w.load(records, 500);
            double loadSeconds = (System.nanoTime() - t0) / 1e9;
            o.printf(Locale.ROOT, "%s (%s): loaded %,d orders in %.1f s (%,.0f records/s, 500 per transaction)%n",
                    database, connection, records, loadSeconds, records / loadSeconds);

            FDBStoreTimer saveTimer = new FDBStoreTimer();
            long saveTx = count(w.save(batch, 7, saveTimer));
            RecordsWorkload.KvShape saveShape = RecordsWorkload.KvShape.of(saveTimer, saveTx);
            FDBStoreTimer queryTimer = new FDBStoreTimer();
            long queryTx = count(w.query(8, queryTimer, new AtomicLong()));
            RecordsWorkload.KvShape queryShape = RecordsWorkload.KvShape.of(queryTimer, queryTx);
            o.printf("  per save transaction:  %s%n", saveShape);
            o.printf("  per query transaction: %s%n", queryShape);
            if (workloads.contains("raw-save") || workloads.contains("raw-query")) {
                w.loadRaw(records, Math.max(saveShape.bytesPerWrite(), 16));
            }
            o.println();
            o.printf("%-10s %7s | %9s %10s %9s %9s %8s | %8s %6s%n",
                    "workload", "clients", "txn/s", "records/s", "p50 us", "p99 us", "retries", "cpu us", "jit ms");
            o.flush();
            List<Cell> mine = new ArrayList<>();
            for (String workload : workloads) {
                for (int c : clients) {
                    mine.add(cell(database, workload, c, w, saveShape, queryShape, o));
                }
            }
            // The split comes from a second run of each Record Layer cell, after the measured
            // ones: sampling every millisecond costs CPU of its own, which the figures above must
            // not pay. The samples are read after the last database (see CpuSplit.stop).
            if (!noProfile) {
                for (Cell cell : mine) {
                    if (cell.workload().equals("save") || cell.workload().equals("query")) {
                        CpuSplit split = new CpuSplit();
                        run(cell.workload(), cell.clients(), w, saveShape, queryShape, new AtomicLong(), new ClosedLoop.Measured() {
                            @Override
                            public void started() {
                                split.start();
                            }

                            @Override
                            public void stopped() {
                                split.stop();
                            }
                        });
                        cells.add(cell.withSplit(split));
                    } else {
                        cells.add(cell);
                    }
                }
            } else {
                cells.addAll(mine);
            }
        } finally {
            // The last handle of a durable directory closes its engine; then the directory can go.
            db.close();
            deleteTree(work);
        }
    }

    /**
     * The Record Layer is a large body of code: on 2 cores the JIT takes tens of seconds to
     * compile its hot paths, and until it has, the first cells ran at a third of their later
     * speed. So the same transactions run first on a throwaway in-memory store.
     */
    private void warmUp(PrintWriter o) throws IOException {
        Path work = Files.createDirectories(dir).resolve("records-warmup-" + ProcessHandle.current().pid());
        Files.createDirectories(work);
        Path clusterFile = Files.writeString(work.resolve("fdb.cluster"),
                "strata:memory:strata-bench-records-warmup-" + ProcessHandle.current().pid() + "?completion=" + completion + "\n");
        FDBDatabase db = FDBDatabaseFactory.instance().getDatabase(clusterFile.toString());
        try {
            RecordsWorkload w = new RecordsWorkload(db);
            w.load(5_000, 500);
            // With and without a timer, as the cells run them: a run with a timer routes every
            // call through the Record Layer's instrumented transaction, and a call site that met
            // only one kind before would be deoptimized and compiled again in a measured cell.
            ClosedLoop.Operation save = w.save(batch, 5, null);
            ClosedLoop.Operation query = w.query(6, null, new AtomicLong());
            ClosedLoop.Operation timedSave = w.save(batch, 7, new FDBStoreTimer());
            ClosedLoop.Operation timedQuery = w.query(8, new FDBStoreTimer(), new AtomicLong());
            // In slices of 5 s until a slice compiles for less than 2% of it (or the time is up).
            long start = System.nanoTime();
            long end = start + Math.round(jitWarmup * 1e9);
            long n = 0;
            long sliceJit;
            do {
                long jit0 = JvmTime.jitMillis();
                long sliceEnd = Math.min(end, System.nanoTime() + 5_000_000_000L);
                while (System.nanoTime() < sliceEnd) {
                    save.run();
                    query.run();
                    if (n % 10 == 0) {
                        timedSave.run();
                        timedQuery.run();
                    }
                    n++;
                }
                sliceJit = JvmTime.jitMillis() - jit0;
            } while (System.nanoTime() < end && sliceJit > 100);
            o.printf(Locale.ROOT, "JIT warm-up: %,d saves and queries on a throwaway in-memory store in %.0f s "
                    + "(JIT compiling %d ms in the last slice)%n", n, (System.nanoTime() - start) / 1e9, sliceJit);
            o.flush();
        } catch (Exception e) {
            throw new IllegalStateException("the warm-up failed", e);
        } finally {
            db.close();
            deleteTree(work);
        }
    }

    /** Runs {@value #COUNTING_TRANSACTIONS} operations on this thread; the transactions they took. */
    private static long count(ClosedLoop.Operation op) {
        long attempts = 0;
        for (int i = 0; i < COUNTING_TRANSACTIONS; i++) {
            try {
                attempts += 1 + op.run();
            } catch (Exception e) {
                throw new IllegalStateException("the counting pass failed", e);
            }
        }
        return attempts;
    }

    /** One measured cell, and the CPU split of its profiled twin (null when not profiled). */
    record Cell(String database, String workload, int clients, ClosedLoop.Result result, double recordsPerSecond,
                double cpuMicros, RecordsWorkload.KvShape shape, CpuSplit split) {
        Cell withSplit(CpuSplit s) {
            return new Cell(database, workload, clients, result, recordsPerSecond, cpuMicros, shape, s);
        }

        String csv(int batch) {
            ClosedLoop.Result r = result;
            List<String> f = new ArrayList<>(List.of(database, workload, Integer.toString(clients), Integer.toString(batch),
                    fmt(r.seconds()), Long.toString(r.operations()), fmt(r.perSecond()), fmt(recordsPerSecond),
                    fmt(r.p50Micros()), fmt(r.p99Micros()), Long.toString(r.retries()), Long.toString(r.errors()),
                    fmt(cpuMicros), Long.toString(r.jitMillis())));
            for (CpuSplit.Part p : CpuSplit.Part.values()) {
                f.add(split == null ? "" : fmt(split.share(p)));
            }
            f.add(split == null ? "" : Long.toString(split.total()));
            f.add("\"" + shape + "\"");
            return String.join(",", f);
        }
    }

    private Cell cell(String database, String workload, int c, RecordsWorkload w, RecordsWorkload.KvShape saveShape,
                      RecordsWorkload.KvShape queryShape, PrintWriter o) {
        AtomicLong found = new AtomicLong();
        ClosedLoop.Result r = run(workload, c, w, saveShape, queryShape, found, ClosedLoop.Measured.NONE);
        double recordsPerSecond = switch (workload) {
            case "save", "raw-save" -> r.perSecond() * batch;
            case "query" -> r.operations() == 0 ? 0 : found.get() / r.seconds();
            default -> Double.NaN;
        };
        double cpuMicros = r.cpuMicrosPerOperation();
        o.printf(Locale.ROOT, "%-10s %7d | %,9.0f %,10.0f %9.1f %9.1f %,8d | %,8.0f %6d%n",
                workload, c, r.perSecond(), recordsPerSecond, r.p50Micros(), r.p99Micros(), r.retries(), cpuMicros,
                r.jitMillis());
        if (r.errors() > 0 || r.firstError() != null) {
            o.printf("  %,d failed; first failure: %s%n", r.errors(), r.firstError());
        }
        o.flush();
        return new Cell(database, workload, c, r, recordsPerSecond, cpuMicros,
                workload.endsWith("save") ? saveShape : queryShape, null);
    }

    /** Where the CPU went in the profiled twins of the Record Layer's cells, read now that nothing is measured. */
    private static void printSplit(PrintWriter o, List<Cell> cells) {
        List<Cell> profiled = cells.stream().filter(c -> c.split() != null).toList();
        if (profiled.isEmpty()) {
            return;
        }
        profiled.forEach(c -> c.split().analyze());
        o.println();
        o.println("Where the CPU goes (JFR samples of a second run of each cell, charged to the first non-JDK frame):");
        o.printf("%-8s %-6s %7s | %8s | %6s %6s %6s %6s %6s %6s %6s%n",
                "database", "cell", "clients", "samples", "rl %", "pb %", "tup %", "eng %", "spin %", "jdk %", "oth %");
        for (Cell c : profiled) {
            CpuSplit s = c.split();
            o.printf(Locale.ROOT, "%-8s %-6s %7d | %,8d | %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f%n",
                    c.database(), c.workload(), c.clients(), s.total(),
                    100 * s.share(CpuSplit.Part.RECORD_LAYER), 100 * s.share(CpuSplit.Part.PROTOBUF),
                    100 * s.share(CpuSplit.Part.TUPLES), 100 * s.share(CpuSplit.Part.ENGINE),
                    100 * s.share(CpuSplit.Part.SPIN), 100 * s.share(CpuSplit.Part.JDK),
                    100 * s.share(CpuSplit.Part.OTHER));
        }
        o.println("rl = Record Layer (with fdb-extensions, Guava); pb = protobuf; tup = fdb-java tuples and subspaces;");
        o.println("eng = Strata's engine and strata-fdb; spin = the sequencer waiting for work; jdk = futures, executors.");
        o.flush();
    }

    private ClosedLoop.Result run(String workload, int c, RecordsWorkload w, RecordsWorkload.KvShape saveShape,
                                  RecordsWorkload.KvShape queryShape, AtomicLong found, ClosedLoop.Measured hooks) {
        List<ClosedLoop.Operation> operations = IntStream.range(0, c).mapToObj(i -> switch (workload) {
            case "save" -> w.save(batch, 1_000L + i, null);
            case "query" -> w.query(2_000L + i, null, found);
            case "raw-save" -> w.raw(saveShape, 3_000L + i);
            case "raw-query" -> w.raw(queryShape, 4_000L + i);
            default -> throw new IllegalArgumentException(workload);
        }).toList();
        return ClosedLoop.run(operations, BenchArgs.duration(warmup), BenchArgs.duration(seconds), "records-" + workload,
                ClientPriority.NORMAL, hooks);
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + root, e);
        }
    }
}
