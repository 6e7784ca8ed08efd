package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What fdb-java's completion discipline ({@link Completion#FDB_JAVA}, strata-fdb's databases)
 * costs a point read, against the engine's immediate completion ({@code Strata.inMemory()}).
 *
 * <p><b>Workload.</b> One thread, one {@code get(key).join()} per operation, each value 100
 * bytes of one of 10,000 16-byte keys. {@code cachedRead}: one transaction per 1,024 reads of
 * keys it has read before, so the read cache answers (the cheapest read, where the hand-off
 * to the executor weighs most). {@code storeRead}: a new transaction per 64 reads of random
 * keys, answered by the store. {@code executor}: {@code pool} is the engine's
 * {@code ForkJoinPool} (the default of {@code Strata}'s databases), {@code cached} a cached pool
 * of daemon threads like fdb-java's {@code FDB.DEFAULT_EXECUTOR} (the default of strata-fdb's).
 *
 * <p>Besides JMH's time per read, each iteration prints the process's CPU time per read
 * ({@code cpu ns/read}: every thread, so the executor's work is counted; JMH's own is not
 * subtracted, and it is small next to a read).
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar CompletionBenchmark -f 1 -wi 2 -i 3 -r 1s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(1)
@State(Scope.Thread)
public class CompletionBenchmark {
    private static final int KEYS = 10_000;
    private static final int CACHED_KEYS = 64;

    @Param({"IMMEDIATE", "FDB_JAVA"})
    public Completion completion;

    @Param({"pool", "cached"})
    public String executor;

    private Database db;
    private ExecutorService cachedPool;
    private byte[][] keys;
    private final SplittableRandom random = new SplittableRandom(7);
    private Transaction cachedTx;
    private int cachedReads;
    private Transaction storeTx;
    private int storeReads;
    private long cpuAtStart;
    private long reads;

    @Setup(Level.Trial)
    public void open() {
        Strata.Builder builder = Strata.builder();
        if (completion == Completion.FDB_JAVA) {
            builder.completeLikeFdbJava();
        }
        if (executor.equals("cached")) {
            cachedPool = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "fdb-java-like");
                t.setDaemon(true);
                return t;
            });
            builder.executor(cachedPool);
        }
        db = builder.inMemory();
        keys = new byte[KEYS][];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = String.format("key-%012d", i).getBytes(StandardCharsets.US_ASCII);
        }
        byte[] value = new byte[100];
        for (int from = 0; from < KEYS; from += 1_000) {
            int start = from;
            db.run(tr -> {
                for (int i = start; i < start + 1_000; i++) {
                    tr.set(keys[i], value);
                }
                return null;
            });
        }
    }

    @Setup(Level.Iteration)
    public void startCounting() {
        cpuAtStart = processCpuNanos();
        reads = 0;
    }

    @TearDown(Level.Iteration)
    public void printCpu() {
        long cpu = processCpuNanos() - cpuAtStart;
        System.out.printf("%n    cpu ns/read: %.0f (%s, %s, %d reads)%n", (double) cpu / Math.max(reads, 1), completion, executor, reads);
    }

    @Benchmark
    public byte[] cachedRead() {
        if (cachedTx == null || cachedReads == 1_024) {
            if (cachedTx != null) {
                cachedTx.close();
            }
            cachedTx = db.createTransaction();
            for (int i = 0; i < CACHED_KEYS; i++) {
                cachedTx.get(keys[i]).join();
            }
            cachedReads = 0;
        }
        cachedReads++;
        reads++;
        return cachedTx.get(keys[random.nextInt(CACHED_KEYS)]).join();
    }

    @Benchmark
    public byte[] storeRead() {
        if (storeTx == null || storeReads == 64) {
            if (storeTx != null) {
                storeTx.close();
            }
            storeTx = db.createTransaction();
            storeReads = 0;
        }
        storeReads++;
        reads++;
        return storeTx.get(keys[random.nextInt(KEYS)]).join();
    }

    @TearDown(Level.Trial)
    public void close() {
        if (cachedTx != null) {
            cachedTx.close();
        }
        if (storeTx != null) {
            storeTx.close();
        }
        db.close();
        if (cachedPool != null) {
            cachedPool.shutdown();
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
