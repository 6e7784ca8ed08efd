package io.strata.engine;

import io.strata.bench.jmh.ClientState;
import io.strata.bench.jmh.PeerState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * A mixed workload, 90% reads and 10% writes, from 64 concurrent clients: transactions/s.
 *
 * <p><b>Workload.</b> 100,000 keys of 16 bytes loaded with 100-byte values. 64 threads each
 * run one transaction after another; each is, with probability 0.9, a read-only
 * transaction reading one uniformly random key, and otherwise a read-write transaction
 * reading one random key and setting it to a new 100-byte value, retried on conflict. The
 * score counts transactions of both kinds. Engines as in {@link io.strata.bench.peer}.
 *
 * <p><b>Run</b> (after {@code mvn -q -DskipTests package -pl strata-bench -am}):
 * <pre>
 * java -jar strata-bench/target/strata-bench.jar MixedWorkloadBenchmark -f 1 -wi 1 -i 2 -r 2s
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(64)
public class MixedWorkloadBenchmark {
    /** One in ten transactions writes. */
    private static final int WRITE_ONE_IN = 10;

    @Benchmark
    public Object transaction(PeerState peer, ClientState client) {
        byte[] key = peer.data.key(client.nextIndex());
        if (client.random.nextInt(WRITE_ONE_IN) == 0) {
            return client.session.readModifyWrite(key, peer.data.value(client.nextIndex()));
        }
        byte[] value = client.session.read(key);
        client.session.endRead();
        return value;
    }
}
