package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.durability.Durability;
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

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the chunk size of {@link BlobStore} costs, the measurement behind
 * {@link BlobSettings#DEFAULT_CHUNK_SIZE}: bulk transfer favours few large chunks, small
 * random edits favour small ones (a SETRANGE rewrites the whole chunk it touches).
 *
 * <p><b>Workload.</b> One thread, one store with the default {@code transactionBytes}
 * (1,000,000) and the given {@code chunkSize}, on an in-memory engine or a durable one
 * ({@code storage=disk}: a temporary directory, {@link Durability#OS_BUFFERED}, so the log's
 * writes are counted but no fsync). A 4 MiB blob of random bytes is written before the run.
 * <ul>
 *   <li>{@code writeStaged}: {@link BlobStore#write(Database, byte[], byte[])} of a 4 MiB
 *       value: staged over several transactions and switched in, the old value's chunks
 *       cleared;</li>
 *   <li>{@code readWhole}: {@link BlobStore#read(Database, byte[])} of the 4 MiB blob;</li>
 *   <li>{@code readRange}: 100 bytes at a random offset, in a transaction of its own (a
 *       GETRANGE);</li>
 *   <li>{@code writeAtSmall}: 10 bytes written at a random offset inside the blob, in a
 *       transaction of its own (a SETRANGE: the touched chunk is read and rewritten).</li>
 * </ul>
 *
 * <p>Reported: JMH's sampled time per operation (read the median, p0.50: on the shared
 * machine the mean is pulled far up by other processes' load), and, printed after each
 * iteration, the process's CPU time per operation ({@code cpu us/op}: every thread, so the
 * engine's commit and GC work count; other processes' load does not).
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar BlobChunkSizeBenchmark -f 1 -wi 2 -i 3 -r 1s
 * </pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
@State(Scope.Thread)
public class BlobChunkSizeBenchmark {
    private static final int BLOB_BYTES = 4 << 20;

    @Param({"10000", "32768", "65536", "100000"})
    public int chunkSize;

    @Param({"memory", "disk"})
    public String storage;

    private Path directory;
    private Database db;
    private BlobStore store;
    private final byte[] blob = "blob".getBytes();
    private final byte[] replaced = "replaced".getBytes();
    private byte[] value;
    private final byte[] small = new byte[10];
    private final SplittableRandom random = new SplittableRandom(11);
    private long cpuAtStart;
    private long operations;

    @Setup(Level.Trial)
    public void open() throws IOException {
        if (storage.equals("disk")) {
            directory = Files.createTempDirectory("blob-bench");
            db = Strata.builder().durability(Durability.OS_BUFFERED).open(directory);
        } else {
            db = Strata.inMemory();
        }
        store = new BlobStore(new Subspace(Tuple.from("bench")), BlobSettings.defaults().withChunkSize(chunkSize));
        value = new byte[BLOB_BYTES];
        random.nextBytes(value);
        store.write(db, blob, value).join();
        store.write(db, replaced, value).join();
    }

    @Setup(Level.Iteration)
    public void startCounting() {
        cpuAtStart = processCpuNanos();
        operations = 0;
    }

    @TearDown(Level.Iteration)
    public void printCpu() {
        double micros = (processCpuNanos() - cpuAtStart) / 1_000.0;
        System.out.printf(Locale.ROOT, "%n    cpu us/op: %.1f (%d ops)%n", micros / Math.max(operations, 1), operations);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    @TearDown(Level.Trial)
    public void close() {
        db.close();
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Benchmark
    public void writeStaged() {
        operations++;
        store.write(db, replaced, value).join();
    }

    @Benchmark
    public byte[] readWhole() {
        operations++;
        return store.read(db, blob).join();
    }

    @Benchmark
    public byte[] readRange() {
        operations++;
        long offset = random.nextInt(BLOB_BYTES - 100);
        return db.readAsync(tr -> store.read(tr, blob, offset, 100)).join();
    }

    @Benchmark
    public long writeAtSmall() {
        operations++;
        long offset = random.nextInt(BLOB_BYTES - small.length);
        return db.runAsync(tr -> store.writeAt(tr, blob, offset, small)).join();
    }
}
