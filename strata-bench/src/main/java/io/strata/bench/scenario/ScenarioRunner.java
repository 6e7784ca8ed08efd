package io.strata.bench.scenario;

import io.strata.bench.data.Dataset;
import io.strata.bench.peer.KvPeer;
import io.strata.bench.peer.KvSession;
import io.strata.bench.run.ClosedLoop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs one cell: opens the engine empty, loads the data set, and runs {@code clients} clients
 * of the workload in a {@link ClosedLoop} (its measurement rules apply: an operation counts if
 * it started while measuring; nothing is estimated).
 */
public final class ScenarioRunner {
    private ScenarioRunner() {}

    public static RunResult run(String engine, Workload workload, int clients, Dataset data, Duration warmup, Duration measure) {
        try (KvPeer peer = KvPeer.open(engine)) {
            peer.load(data);
            List<KvSession> sessions = new ArrayList<>();
            List<ClosedLoop.Operation> operations = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                KvSession session = peer.session();
                SplittableRandom random = new SplittableRandom(1_000 + i);
                sessions.add(session);
                operations.add(() -> {
                    try {
                        return workload.run(session, data, random);
                    } catch (RuntimeException e) {
                        session.endRead(); // a failed read-only operation must not pin its snapshot
                        throw e;
                    }
                });
            }
            ClosedLoop.Result r = ClosedLoop.run(operations, warmup, measure, "bench-client");
            sessions.forEach(KvSession::close);
            if (r.firstError() != null) {
                System.err.println("strata bench: " + engine + " " + workload.id() + ": " + r.firstError());
            }
            return new RunResult(workload, engine, clients, r.seconds(), r.operations(), r.retries(), r.errors(),
                    r.latency());
        }
    }
}
