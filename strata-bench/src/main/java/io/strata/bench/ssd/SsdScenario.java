package io.strata.bench.ssd;

import io.strata.bench.data.Dataset;
import io.strata.bench.peer.StrataPeer;
import io.strata.bench.report.CsvLog;
import io.strata.bench.run.ClosedLoop;
import io.strata.bench.scenario.RunResult;
import io.strata.bench.scenario.ScenarioRunner;
import io.strata.bench.scenario.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code strata bench ssd}: the scenario of issue 19, in three phases.
 *
 * <h2>load — data larger than the heap, against RocksDB alone</h2>
 * Per engine ({@link StrataTarget}: Strata on {@code Storage.SSD}; {@link RocksTarget}: RocksDB
 * configured as Strata's disk store, WAL on, {@code sync=true}; both with the same block cache
 * and Bloom filters), in a fresh directory:
 * <ol>
 *   <li>{@code load}: {@link SsdLoad} — the same loader threads and batches on both.</li>
 *   <li>{@code close}: the time to close (what the engine still had to write).</li>
 *   <li>{@code reopen}: open until the first point read returned.</li>
 *   <li>{@code verify}: a sample of keys read back and checked.</li>
 *   <li>{@code get}: {@code clients} threads of point reads of uniformly random keys, closed
 *       loop ({@link ClosedLoop}); a missing key counts as an error.</li>
 *   <li>{@code scan100}: the same with a read of the 100 keys from a random key upward.</li>
 * </ol>
 * The directory is deleted before the next engine loads, so the disk holds one copy at a time.
 *
 * <h2>recovery — kill -9 mid-load</h2>
 * {@link SsdRecovery} per engine: a child JVM loads until {@code killAtBytes} are acknowledged,
 * is killed, and the open plus first read is timed here.
 *
 * <h2>window — a working set that fits in memory, Strata SSD against Strata MEMORY</h2>
 * {@code bench engine}'s read, write and mixed workloads ({@link Workload}) on
 * {@code windowKeys} keys at {@code clients} clients: {@code strata-fsync} (durable,
 * {@code Storage.MEMORY}) and {@code strata-ssd} (durable, {@code Storage.SSD}, default cache),
 * each loaded fresh per cell. Writes and read-modify-writes always go through the in-memory
 * window; reads of keys written more than 5 s before come from the disk store (its block
 * cache, then the OS page cache), as they would on a FoundationDB ssd storage server.
 *
 * <h2>CSV ({@value #CSV_FILE})</h2>
 * Header {@value #CSV_HEADER}; the columns are {@link SsdResult}'s, {@code p*_us} in
 * microseconds (empty where a phase has no latencies).
 */
public final class SsdScenario {
    public static final String CSV_FILE = "ssd.csv";
    public static final String CSV_HEADER = "phase,engine,clients,seconds,ops,errors,rate,unit,p50_us,p99_us,max_us,note";
    static final int SCAN_KEYS = 100;

    private final SsdConfig config;
    private final SsdData data;

    public SsdScenario(SsdConfig config) {
        this.config = config;
        this.data = SsdData.ofBytes(config.dataBytes(), config.valueBytes());
    }

    public SsdData data() {
        return data;
    }

    /** Runs the chosen phases; hands each result to {@code onResult} as it is measured and writes them to {@code outDir}. */
    public List<SsdResult> run(Path outDir, Consumer<SsdResult> onResult) throws IOException, InterruptedException {
        Files.createDirectories(config.directory());
        try (CsvLog<SsdResult> log = CsvLog.create(outDir, CSV_FILE, CSV_HEADER, SsdScenario::csvLine, onResult)) {
            if (config.phases().contains("load")) {
                for (String engine : config.engines()) {
                    loadAndRead(engine, log);
                }
            }
            if (config.phases().contains("recovery")) {
                for (String engine : config.engines()) {
                    recovery(engine, log);
                }
            }
            if (config.phases().contains("window")) {
                window(log);
            }
            return log.results();
        }
    }

    private void loadAndRead(String engine, CsvLog<SsdResult> log) throws IOException {
        Path dir = Files.createTempDirectory(config.directory(), "ssd-" + engine + "-");
        try {
            System.gc();
            SsdTarget target = SsdTarget.open(engine, dir, config.cacheBytes());
            SsdLoad.Result load;
            try {
                load = new SsdLoad(target, data, config.loaders(), config.batchKeys()).run();
            } catch (RuntimeException e) {
                target.close();
                throw e;
            }
            log.add(new SsdResult("load", engine, config.loaders(), load.seconds(), load.batches(), 0, load.mibPerSecond(),
                    "MiB/s", load.latency(), String.format(Locale.ROOT, "%,d keys, %,.0f keys/s, %d-key batches%s", load.keys(),
                    load.keysPerSecond(), config.batchKeys(), load.refused() > 0 ? ", " + load.refused() + " refused (memory limit) and retried" : "")));
            long c0 = System.nanoTime();
            target.close();
            double closeSeconds = (System.nanoTime() - c0) / 1e9;
            log.add(new SsdResult("close", engine, 1, closeSeconds, 1, 0, closeSeconds, "s", null,
                    String.format(Locale.ROOT, "on disk after close: %,d MiB; %s", du(dir) >> 20,
                            LsmShape.of(SsdTarget.isStrata(engine) ? dir.resolve("ssd") : dir))));
            System.gc();
            long t0 = System.nanoTime();
            try (SsdTarget reopened = SsdTarget.open(engine, dir, config.cacheBytes())) {
                SsdTarget.Reader reader = reopened.reader();
                byte[] first = reader.get(data.key(data.count() - 1));
                double reopenSeconds = (System.nanoTime() - t0) / 1e9;
                Path rocks = SsdTarget.isStrata(engine) ? dir.resolve("ssd") : dir;
                log.add(new SsdResult("reopen", engine, 1, reopenSeconds, 1, data.isValueOf(data.count() - 1, first) ? 0 : 1,
                        reopenSeconds, "s", null, "open to first read; then " + LsmShape.of(rocks)));
                log.add(verify(engine, reader));
                reader.close();
                log.add(reads(engine, reopened, "get", (r, random) -> {
                    long i = random.nextLong(data.count());
                    if (r.get(data.key(i)) == null) {
                        throw new IllegalStateException("key " + i + " missing");
                    }
                }, 1));
                String beforeScans = LsmShape.of(rocks);
                SsdResult scans = reads(engine, reopened, "scan100", (r, random) -> {
                    int n = r.scan(data.key(random.nextLong(data.count())), SCAN_KEYS);
                    if (n == 0) {
                        throw new IllegalStateException("empty scan");
                    }
                }, SCAN_KEYS);
                // The scans' cost depends on the level-0 files each must seek, which compactions
                // after the reopen may still be merging: the shape before and after tells.
                log.add(scans.withNote(scans.note() + "; LSM before " + beforeScans.replace("files per level ", "")
                        + ", after " + LsmShape.of(rocks).replace("files per level ", "")));
                SsdResult splits = splits(engine, reopened);
                if (splits != null) {
                    log.add(splits);
                }
            }
        } finally {
            deleteTree(dir);
        }
    }

    /** Chunks of the split-point row: what a job splitting the data among workers might ask for. */
    static final long SPLIT_CHUNK_BYTES = 64L << 20;

    /**
     * Times one {@code getRangeSplitPoints} over the whole data at {@link #SPLIT_CHUNK_BYTES},
     * and reports how far the chunks' key counts stray from the size asked (the data is
     * uniform, so keys stand for bytes); null for an engine without the call.
     */
    private SsdResult splits(String engine, SsdTarget target) {
        long t0 = System.nanoTime();
        List<byte[]> points = target.splitPoints(SPLIT_CHUNK_BYTES);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (points == null) {
            return null;
        }
        long keysPerChunk = SPLIT_CHUNK_BYTES / (SsdData.KEY_BYTES + data.valueBytes());
        double expected = (double) data.count() / keysPerChunk;
        // Keys spread uniformly after their first byte, so a point's place in that space is the
        // share of the data below it: chunk sizes without reading the data.
        double total = data.bytesOf(data.count());
        double smallest = Double.MAX_VALUE;
        double largest = 0;
        for (int i = 0; i + 2 < points.size(); i++) { // the last chunk is what is left
            double chunk = (SsdData.share(points.get(i + 1)) - SsdData.share(points.get(i))) * total;
            smallest = Math.min(smallest, chunk);
            largest = Math.max(largest, chunk);
        }
        String sizes = points.size() > 2
                ? String.format(Locale.ROOT, "; chunks %.1f-%.1f MiB but the last", smallest / (1 << 20), largest / (1 << 20))
                : "; one chunk: the data is smaller than the size asked";
        return new SsdResult("splits", engine, 1, seconds, 1, 0, seconds, "s", null,
                String.format(Locale.ROOT, "%d split points at %d MiB chunks (%.0f would fit)%s",
                        points.size(), SPLIT_CHUNK_BYTES >> 20, expected, sizes));
    }

    private SsdResult verify(String engine, SsdTarget.Reader reader) {
        SplittableRandom random = new SplittableRandom(11);
        int bad = 0;
        long t0 = System.nanoTime();
        for (int n = 0; n < config.verifyKeys(); n++) {
            long i = random.nextLong(data.count());
            if (!data.isValueOf(i, reader.get(data.key(i)))) {
                bad++;
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new SsdResult("verify", engine, 1, seconds, config.verifyKeys(), bad, config.verifyKeys() / seconds, "reads/s",
                null, bad == 0 ? "every sampled key present with its value" : bad + " keys missing or wrong");
    }

    /** One read of a closed-loop client. */
    private interface ReadOp {
        void run(SsdTarget.Reader reader, SplittableRandom random);
    }

    private SsdResult reads(String engine, SsdTarget target, String phase, ReadOp op, int keysPerOp) {
        List<SsdTarget.Reader> readers = new ArrayList<>();
        List<ClosedLoop.Operation> ops = new ArrayList<>();
        for (int c = 0; c < config.clients(); c++) {
            SsdTarget.Reader reader = target.reader();
            SplittableRandom random = new SplittableRandom(1_000 + c);
            readers.add(reader);
            ops.add(() -> {
                op.run(reader, random);
                return 0;
            });
        }
        ClosedLoop.Result r = ClosedLoop.run(ops, config.warmup(), config.measure(), "ssd-" + phase);
        readers.forEach(SsdTarget.Reader::close);
        // CPU per operation besides the rate: on a VM shared with other work the rate follows
        // the cores this process got, while its CPU per operation (the whole process's, so
        // compactions and collections count) moves much less.
        String note = String.format(Locale.ROOT, "%,.0f keys/s; CPU %.0f%% of the interval, %.1f us per %s", r.operations() * keysPerOp / r.seconds(),
                100 * r.cpuSeconds() / r.seconds(), r.cpuMicrosPerOperation(), phase.equals("get") ? "read" : "scan");
        if (r.firstError() != null) {
            note += "; first error: " + r.firstError();
        }
        return new SsdResult(phase, engine, config.clients(), r.seconds(), r.operations(), r.errors(), r.operations() / r.seconds(),
                phase.equals("get") ? "reads/s" : "scans/s", r.latency(), note);
    }

    private void recovery(String engine, CsvLog<SsdResult> log) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory(config.directory(), "ssd-recovery-" + engine + "-");
        try {
            SsdRecovery.Result r = new SsdRecovery(engine, data, config.loaders(), config.batchKeys(), config.cacheBytes())
                    .run(dir, Math.min(config.killAtBytes(), data.bytesOf(data.count())), config.verifyKeys());
            log.add(new SsdResult("recovery", engine, 1, r.recoverySeconds(), r.checked(), r.missing(), r.recoverySeconds(), "s",
                    null, String.format(Locale.ROOT, "killed after %.1f s with %,d MiB acknowledged; log left %,d MiB; open %.2f s; %,d MiB on disk; %s",
                    r.loadedSeconds(), r.ackedBytes() >> 20, r.logBytes() >> 20, r.openSeconds(), du(dir) >> 20,
                    r.missing() == 0 ? "every sampled acknowledged key present" : r.missing() + " acknowledged keys missing")));
        } finally {
            deleteTree(dir);
        }
    }

    private void window(CsvLog<SsdResult> log) throws IOException {
        Dataset small = new Dataset(config.windowKeys(), config.valueBytes(), 42);
        for (Workload w : Workload.values()) {
            for (String engine : List.of(StrataPeer.FSYNC_NAME, StrataPeer.SSD_NAME)) {
                System.gc();
                RunResult r = ScenarioRunner.run(engine, w, config.clients(), small, config.warmup(), config.measure());
                log.add(new SsdResult("window-" + w.id(), engine, r.clients(), r.seconds(), r.ops(), r.errors(), r.opsPerSecond(),
                        "txn/s", r.latency(), String.format(Locale.ROOT, "%,d keys of %d B; %d retries", small.size(),
                        config.valueBytes(), r.retries())));
            }
        }
    }

    private static String csvLine(SsdResult r) {
        return String.format(Locale.ROOT, "%s,%s,%d,%.3f,%d,%d,%.3f,%s,%s,%s,%s,\"%s\"", r.phase(), r.engine(), r.clients(),
                r.seconds(), r.ops(), r.errors(), r.rate(), r.unit(), num(r.micros(50)), num(r.micros(99)), num(r.maxMicros()),
                r.note().replace("\"", "\"\""));
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** Bytes the files under {@code dir} take. */
    static long du(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
