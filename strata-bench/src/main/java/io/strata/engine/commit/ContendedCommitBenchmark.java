package io.strata.engine.commit;

import io.strata.bench.jmh.ClientState;
import io.strata.bench.jmh.PeerState;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * The whole engine under contention: read-modify-write transactions on a few hot keys,
 * committed/s and conflict retries/s.
 *
 * <p><b>Workload.</b> 16 threads, each running one transaction after another: read one of
 * the first {@code hotKeys} keys (uniformly), set it, commit, retry on conflict until it
 * commits. The score is committed transactions/s; the {@code retries} counter is the
 * conflicts/s. Strata retries through {@code Database.run}, so it backs off as fdb-java does
 * (jittered, from 10 ms); RocksDB's OptimisticTransactionDB retries a {@code Busy} commit at
 * once. That difference is part of what is measured: it is what each engine's users get.
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar ContendedCommitBenchmark -f 1 -wi 1 -i 2 -r 2s
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(16)
@State(Scope.Thread)
public class ContendedCommitBenchmark {
    @Param({"1", "64"})
    public int hotKeys;

    /** Per-thread outcome counters, reported by JMH as rates. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Outcome {
        public long retries;

        @Setup(Level.Iteration)
        public void reset() {
            retries = 0;
        }
    }

    @Benchmark
    public void readModifyWrite(PeerState peer, ClientState client, Outcome outcome) {
        int hot = client.random.nextInt(hotKeys);
        int attempts = client.session.readModifyWrite(peer.data.key(hot), peer.data.value(client.nextIndex()));
        outcome.retries += attempts - 1;
    }
}
