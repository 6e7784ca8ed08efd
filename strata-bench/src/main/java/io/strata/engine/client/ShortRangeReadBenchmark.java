package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
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

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Range reads of one row, the reads layers make most: the key before a position (a ranked
 * set's predecessor, a list's last element: {@code getRange(begin, key, 1, reverse)}) and the
 * key after it. Reported per read.
 *
 * <p><b>Workload.</b> One thread, an in-memory engine, 100,000 keys with 8-byte values
 * loaded before the run (in the store below the MVCC window once the warm-up has passed).
 * Reads go to uniformly random positions, 100 per transaction, as snapshot reads, which
 * still see the transaction's own writes; the transaction is cancelled after them. With
 * {@code ownWrites} 100 the transaction first ADDs to 100 random keys, so every read merges
 * the store with a write map, as a layer's reads after its first writes do.
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar ShortRangeReadBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
@Threads(1)
@State(Scope.Thread)
public class ShortRangeReadBenchmark {
    private static final int KEYS = 100_000;
    private static final int READS_PER_TRANSACTION = 100;

    @Param({"0", "100"})
    public int ownWrites;

    private Database db;
    private Subspace space;
    private byte[] begin;
    private byte[] end;
    private SplittableRandom random;
    private Transaction tr;
    private int reads;

    @Setup(Level.Trial)
    public void load() {
        db = Strata.builder().inMemory();
        space = new Subspace(Tuple.from("k"));
        begin = space.range().begin;
        end = space.range().end;
        random = new SplittableRandom(42);
        for (int from = 0; from < KEYS; from += 1_000) {
            int start = from;
            db.run(t -> {
                for (int i = start; i < start + 1_000; i++) {
                    t.set(space.pack(i), new byte[8]);
                }
                return null;
            });
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        if (tr != null) {
            tr.close();
        }
        db.close();
    }

    private Transaction transaction() {
        if (reads == READS_PER_TRANSACTION) {
            tr.cancel();
            tr.close();
            tr = null;
        }
        if (tr == null) {
            tr = db.createTransaction();
            reads = 0;
            byte[] one = {1, 0, 0, 0, 0, 0, 0, 0};
            for (int i = 0; i < ownWrites; i++) {
                tr.mutate(MutationType.ADD, space.pack(random.nextInt(KEYS)), one);
            }
        }
        reads++;
        return tr;
    }

    /** The last key below a random one. */
    @Benchmark
    public List<KeyValue> before() {
        Transaction t = transaction();
        return t.snapshot().getRange(begin, space.pack(random.nextInt(KEYS)), 1, true).asList().join();
    }

    /** The first key at or after a random one. */
    @Benchmark
    public List<KeyValue> after() {
        Transaction t = transaction();
        return t.snapshot().getRange(space.pack(random.nextInt(KEYS)), end, 1).asList().join();
    }
}
