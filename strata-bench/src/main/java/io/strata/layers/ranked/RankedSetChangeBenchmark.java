package io.strata.layers.ranked;

import com.apple.foundationdb.Database;
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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What a sorted set's ZADD of a new score costs in the ranked set behind it: one element
 * moved, {@link RankedSet#remove} of {@code score ++ member} then {@link RankedSet#add} of
 * {@code newScore ++ member}, the reads and writes strata-redis's ZADD makes in its ranked
 * set. Reported per move.
 *
 * <p><b>Workload.</b> One thread, an in-memory engine, one ranked set of {@code elements}
 * members with random scores (fanout 16, 6 levels: the default), loaded before the run.
 * Each operation is a transaction of {@code movesPerTransaction} moves of uniformly random
 * members to new random scores, committed: 1 is a ZADD on its own, 16 a batch of a lane of
 * strata-redis (one transaction for what its clients queued). A move is one membership read
 * and five reverse range reads of one row (a predecessor per level above 0) each way, so the
 * figure is mostly the engine's short range reads under a transaction's own writes.
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar RankedSetChangeBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx4g"})
@Threads(1)
@State(Scope.Thread)
public class RankedSetChangeBenchmark {
    @Param({"100000"})
    public int elements;

    @Param({"1", "16"})
    public int movesPerTransaction;

    private Database db;
    private RankedSet set;
    private long[] scores;
    private byte[][] members;
    private SplittableRandom random;

    @Setup(Level.Trial)
    public void load() {
        db = Strata.builder().inMemory();
        set = new RankedSet(new Subspace(Tuple.from("zset")));
        scores = new long[elements];
        members = new byte[elements][];
        random = new SplittableRandom(42);
        for (int i = 0; i < elements; i++) {
            members[i] = ("element:" + i).getBytes(StandardCharsets.US_ASCII);
            scores[i] = random.nextInt(1_000_000);
        }
        for (int from = 0; from < elements; from += 500) {
            int start = from;
            int end = Math.min(elements, from + 500);
            db.run(tr -> {
                for (int i = start; i < end; i++) {
                    set.add(tr, element(scores[i], members[i])).join();
                }
                return null;
            });
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        db.close();
    }

    /** Moves {@link #movesPerTransaction} random members to new scores in one transaction; returns how many moved. */
    @Benchmark
    public int move() {
        int[] picked = new int[movesPerTransaction];
        long[] next = new long[movesPerTransaction];
        for (int i = 0; i < movesPerTransaction; i++) {
            picked[i] = random.nextInt(elements);
            next[i] = random.nextInt(1_000_000);
        }
        int moved = db.run(tr -> {
            int n = 0;
            for (int i = 0; i < picked.length; i++) {
                int m = picked[i];
                long old = scores[m];
                for (int j = 0; j < i; j++) {
                    if (picked[j] == m) {
                        old = next[j]; // moved earlier in this transaction
                    }
                }
                if (set.remove(tr, element(old, members[m])).join() && set.add(tr, element(next[i], members[m])).join()) {
                    n++;
                }
            }
            return n;
        });
        for (int i = 0; i < picked.length; i++) {
            scores[picked[i]] = next[i];
        }
        return moved;
    }

    private static byte[] element(long score, byte[] member) {
        return ByteBuffer.allocate(8 + member.length).putLong(score).put(member).array();
    }
}
