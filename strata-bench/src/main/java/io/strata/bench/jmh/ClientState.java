package io.strata.bench.jmh;

import io.strata.bench.peer.KvSession;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/** One benchmark thread's client: its session on the engine under test and its random source. */
@State(Scope.Thread)
public class ClientState {
    /** Distinct, reproducible seeds per thread. */
    private static final AtomicLong SEEDS = new AtomicLong(7);

    public KvSession session;
    public SplittableRandom random;
    private int keyCount;

    @Setup(Level.Trial)
    public void open(PeerState peer) {
        session = peer.peer.session();
        random = new SplittableRandom(SEEDS.getAndIncrement());
        keyCount = peer.data.size();
    }

    /** A uniformly random key index. */
    public int nextIndex() {
        return random.nextInt(keyCount);
    }

    @TearDown(Level.Trial)
    public void close() {
        session.close();
    }
}
