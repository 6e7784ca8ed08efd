package io.strata.engine.commit;

import io.strata.bench.jmh.ClientState;
import io.strata.bench.jmh.PeerState;
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

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Committed single-key write transactions/s.
 *
 * <p><b>Workload.</b> 100,000 keys of 16 bytes loaded with 100-byte values. Each operation is
 * one transaction: begin, set one uniformly random existing key to a 100-byte value,
 * commit, and wait for the commit to be acknowledged. Two client shapes:
 * <ul>
 *   <li>{@code commitSync}: 64 threads, each waiting for its commit before the next — an
 *       application with a thread per request. (On 2 cores: override with {@code -t}.)</li>
 *   <li>{@code commitPipelined}: 2 threads keeping {@code inFlight} commits outstanding in
 *       total ({@code Database.runAsync}); an operation is one commit submitted, and the
 *       iteration ends by waiting for the ones still in flight. RocksDB's commit is
 *       synchronous, so its row is the same transaction done on the 2 threads: its best
 *       shape on 2 cores, compared against Strata's.</li>
 * </ul>
 * The peer is RocksDB's OptimisticTransactionDB with the WAL disabled and {@code sync=false}
 * (see {@link io.strata.bench.peer.RocksDbPeer}); Strata is in memory, with no latency model.
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar WriteCommitBenchmark -f 1 -wi 1 -i 2 -r 2s
 * java -jar strata-bench/target/strata-bench.jar WriteCommitBenchmark.commitSync -t 16
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WriteCommitBenchmark {

    /** The commits in flight of the pipelined client, shared by its threads. */
    @State(Scope.Benchmark)
    public static class Pipeline {
        @Param({"64", "256"})
        public int inFlight;

        Semaphore permits;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        @Setup(Level.Trial)
        public void open() {
            permits = new Semaphore(inFlight);
        }

        /** Waits out the commits still in flight so none spills into the next iteration. */
        @TearDown(Level.Iteration)
        public void drain() throws InterruptedException {
            permits.acquire(inFlight);
            permits.release(inFlight);
            Throwable t = failure.get();
            if (t != null) {
                throw new IllegalStateException("a pipelined commit failed", t);
            }
        }
    }

    @Benchmark
    @Threads(64)
    public void commitSync(PeerState peer, ClientState client) {
        int i = client.nextIndex();
        client.session.write(peer.data.key(i), peer.data.value(client.nextIndex()));
    }

    @Benchmark
    @Threads(2)
    public void commitPipelined(PeerState peer, ClientState client, Pipeline pipeline) throws InterruptedException {
        int i = client.nextIndex();
        pipeline.permits.acquire();
        client.session.writeAsync(peer.data.key(i), peer.data.value(client.nextIndex()))
                .whenComplete((ignored, error) -> {
                    if (error != null) {
                        pipeline.failure.compareAndSet(null, error);
                    }
                    pipeline.permits.release();
                });
    }
}
