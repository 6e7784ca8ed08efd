package io.strata.bench.jmh;

import io.strata.bench.data.Dataset;
import io.strata.bench.peer.KvPeer;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The engine under test ({@code engine} = {@code strata} or {@code rocksdb}), opened empty and
 * loaded with {@link Dataset#standard()} once per trial. Peers are parameters of the same
 * benchmark, so one run reports both and their ratio can be read off the table.
 */
@State(Scope.Benchmark)
public class PeerState {
    @Param({"strata", "rocksdb"})
    public String engine;

    public Dataset data;
    public KvPeer peer;

    @Setup(Level.Trial)
    public void open() {
        data = Dataset.standard();
        peer = KvPeer.open(engine);
        peer.load(data);
    }

    @TearDown(Level.Trial)
    public void close() {
        peer.close();
    }
}
