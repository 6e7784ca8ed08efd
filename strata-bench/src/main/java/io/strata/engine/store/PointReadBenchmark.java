package io.strata.engine.store;

import io.strata.bench.jmh.ClientState;
import io.strata.bench.jmh.PeerState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Point reads of existing keys: reads/s.
 *
 * <p><b>Workload.</b> 100,000 keys of 16 bytes with 100-byte values, loaded before the run.
 * Two threads each read uniformly random keys, one {@code get} per operation, waiting for
 * each value. A thread keeps its read transaction for {@code readsPerTransaction} reads and
 * then opens a fresh one: 1 is a transaction per read (the cost of beginning a transaction
 * included), 64 a typical request, 65,536 a long-lived reader. Reads are serializable, so
 * each one records a read conflict range (Strata) or tracks the key (RocksDB
 * {@code getForUpdate}); see {@link io.strata.bench.peer.RocksDbPeer} for the peer's setup.
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar PointReadBenchmark -f 1 -wi 1 -i 2 -r 2s
 * java -jar strata-bench/target/strata-bench.jar PointReadBenchmark -p engine=strata -p readsPerTransaction=65536
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(2)
@State(Scope.Thread)
public class PointReadBenchmark {
    @Param({"1", "64", "65536"})
    public int readsPerTransaction;

    private int readsInTransaction;

    @Benchmark
    public byte[] get(PeerState peer, ClientState client) {
        if (readsInTransaction == readsPerTransaction) {
            client.session.endRead();
            readsInTransaction = 0;
        }
        readsInTransaction++;
        return client.session.read(peer.data.key(client.nextIndex()));
    }
}
