package io.strata.engine.store;

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
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The store's B+tree of the keys in the MVCC window ({@link SortedIndex}) on its own: the
 * writer's insert and remove, and a reader's one-row reverse read, the predecessor read a
 * ranked set makes per level.
 *
 * <p><b>Workload.</b> {@code keys} keys in the tree, inserted in random order; each operation
 * picks one of another {@code keys} keys at random. {@code shape}: {@code layer} keys are a
 * Redis sorted set's elements as the server stores them — 15 shared bytes (directory prefix,
 * object id, ranked-set level), an 8-byte score and a member {@code element:NNNNNNNNNNNN} — so
 * the first eight bytes of every key are equal; {@code short} keys are 16 random bytes.
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar SortedIndexBenchmark -f 1 -wi 3 -w 2s -i 4 -r 2s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(1)
@State(Scope.Thread)
public class SortedIndexBenchmark {
    @Param({"layer", "short"})
    public String shape;

    @Param({"300000"})
    public int keys;

    private SortedIndex index;
    private VersionChain[] absent;
    private byte[][] probes;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup(Level.Trial)
    public void load() {
        SplittableRandom r = new SplittableRandom(7);
        index = new SortedIndex();
        for (int i = 0; i < keys; i++) {
            index.insert(chain(key(r)));
        }
        absent = new VersionChain[keys];
        probes = new byte[keys][];
        for (int i = 0; i < keys; i++) {
            absent[i] = chain(key(r));
            probes[i] = key(r);
        }
    }

    private byte[] key(SplittableRandom r) {
        if (shape.equals("short")) {
            byte[] k = new byte[16];
            r.nextBytes(k);
            return k;
        }
        byte[] prefix = "\u0015\u0005o\u0000\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0042r\u0014".getBytes(StandardCharsets.ISO_8859_1);
        byte[] member = String.format("element:%012d", r.nextInt(1 << 30)).getBytes(StandardCharsets.ISO_8859_1);
        byte[] k = Arrays.copyOf(prefix, prefix.length + 8 + member.length);
        long score = Double.doubleToLongBits(r.nextInt(100_000)) ^ Long.MIN_VALUE; // sortable, as a positive double
        for (int b = 0; b < 8; b++) {
            k[prefix.length + b] = (byte) (score >>> (56 - 8 * b));
        }
        System.arraycopy(member, 0, k, prefix.length + 8, member.length);
        return k;
    }

    private static VersionChain chain(byte[] key) {
        return new VersionChain(key, ByteKeys.hash(key), 1, new byte[] {1});
    }

    /** Inserts a key the tree does not hold, then removes it: one insert and one remove. */
    @Benchmark
    public boolean insertThenRemove() {
        VersionChain c = absent[random.nextInt(keys)];
        index.insert(c);
        return index.remove(c);
    }

    /** The greatest key below a random one: a descending cursor's first row. */
    @Benchmark
    public VersionChain reverseOne() {
        Iterator<VersionChain> it = index.descending(ByteKeys.EMPTY, probes[random.nextInt(keys)]);
        return it.hasNext() ? it.next() : null;
    }
}
