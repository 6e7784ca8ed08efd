package io.strata.engine.resolver;

import io.strata.bench.data.Dataset;
import io.strata.bench.data.KeyStream;
import io.strata.engine.util.ByteKeys;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The resolver alone: conflict checks and records per second, on the one thread that owns
 * them (the sequencer's). {@code structure} picks {@code window} — {@link ConflictWindow},
 * what the sequencer uses: generations with O(1) single-key writes — or {@code history} —
 * {@link ConflictHistory}, the step function over a sorted map that the window keeps for
 * non-point ranges — so one run shows what the window buys.
 *
 * <p><b>Workload.</b> 100,000 keys of 16 bytes, drawn by {@code distribution} (uniform,
 * scrambled Zipfian 0.99, or sequential; see {@link KeyStream}). The history is first filled
 * with one point write per key, then kept in a steady state that models the sequencer:
 * {@value #BATCH} transactions per commit version, read versions {@value #READ_LAG}
 * versions behind, and history older than {@value #WINDOW_VERSIONS} versions pruned every
 * {@value #PRUNE_EVERY_VERSIONS} versions (the 5 s window at 1,000 batches/s; pruning is
 * charged to the operations that trigger it, as the pipeline does). Operations:
 * <ul>
 *   <li>{@code conflictsPoint}: is a point read {@code [k, k\0)} conflicting? (history unchanged)</li>
 *   <li>{@code conflictsRange100}: the same for a range read over 100 consecutive keys;</li>
 *   <li>{@code addWritePoint}: record a point write at the current version;</li>
 *   <li>{@code readModifyWrite}: a transaction's whole resolution: check its point read and,
 *       if it does not conflict, record its point write.</li>
 * </ul>
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar ConflictCheckBenchmark -f 1 -wi 1 -i 2 -r 2s
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
@State(Scope.Thread)
public class ConflictCheckBenchmark {
    static final int KEYS = Dataset.DEFAULT_KEYS;
    /** Transactions per commit version, as in one sequencer batch under load. */
    static final int BATCH = 64;
    /** How far behind the newest version read versions are: a few batches in flight. */
    static final long READ_LAG = 4;
    /** History kept, in versions (batches): 5 s at 1,000 batches/s. */
    static final long WINDOW_VERSIONS = 5_000;
    /** Prune every 50 batches, as the pipeline prunes every 50 ms. */
    static final long PRUNE_EVERY_VERSIONS = 50;
    static final int RANGE_KEYS = 100;

    @Param({"uniform", "zipf", "sequential"})
    public String distribution;

    @Param({"window", "history"})
    public String structure;

    /** The operations both structures share. */
    private interface Resolver {
        void addWrite(byte[] begin, byte[] end, long version);

        boolean conflicts(byte[] begin, byte[] end, long readVersion);

        void pruneBefore(long oldestVersion);
    }

    private final byte[][] keys = new byte[KEYS][];
    private final byte[][] keysAfter = new byte[KEYS][];
    private Resolver history;
    private KeyStream stream;
    private long version;
    private int inBatch;

    @Setup(Level.Trial)
    public void fill() {
        for (int i = 0; i < KEYS; i++) {
            keys[i] = Dataset.formatKey(i);
            keysAfter[i] = ByteKeys.keyAfter(keys[i]);
        }
        if (structure.equals("window")) {
            ConflictWindow w = new ConflictWindow();
            history = new Resolver() {
                public void addWrite(byte[] b, byte[] e, long v) { w.addWrite(b, e, v); }
                public boolean conflicts(byte[] b, byte[] e, long rv) { return w.conflicts(b, e, rv); }
                public void pruneBefore(long v) { w.pruneBefore(v); }
            };
        } else {
            ConflictHistory h = new ConflictHistory();
            history = new Resolver() {
                public void addWrite(byte[] b, byte[] e, long v) { h.addWrite(b, e, v); }
                public boolean conflicts(byte[] b, byte[] e, long rv) { return h.conflicts(b, e, rv); }
                public void pruneBefore(long v) { h.pruneBefore(v); }
            };
        }
        stream = KeyStream.of(distribution, KEYS, 11);
        version = 1;
        KeyStream fillOrder = KeyStream.of("uniform", KEYS, 13);
        for (int i = 0; i < KEYS; i++) {
            int k = i % 2 == 0 ? i : fillOrder.next();
            history.addWrite(keys[k], keysAfter[k], version);
            advance();
        }
    }

    /** Counts one transaction into the current batch; moves to the next version and prunes on schedule. */
    private void advance() {
        if (++inBatch < BATCH) {
            return;
        }
        inBatch = 0;
        version++;
        if (version % PRUNE_EVERY_VERSIONS == 0) {
            history.pruneBefore(version - WINDOW_VERSIONS);
        }
    }

    @Benchmark
    public boolean conflictsPoint() {
        int k = stream.next();
        return history.conflicts(keys[k], keysAfter[k], version - READ_LAG);
    }

    @Benchmark
    public boolean conflictsRange100() {
        int k = Math.min(stream.next(), KEYS - RANGE_KEYS - 1);
        return history.conflicts(keys[k], keys[k + RANGE_KEYS], version - READ_LAG);
    }

    @Benchmark
    public long addWritePoint() {
        int k = stream.next();
        history.addWrite(keys[k], keysAfter[k], version);
        advance();
        return version;
    }

    @Benchmark
    public boolean readModifyWrite() {
        int k = stream.next();
        boolean conflict = history.conflicts(keys[k], keysAfter[k], version - READ_LAG);
        if (!conflict) {
            history.addWrite(keys[k], keysAfter[k], version);
        }
        advance();
        return conflict;
    }
}
