package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.engine.cluster.StatusDocument;
import io.strata.engine.util.ByteKeys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * {@code \xff\xff/status/json}: runs FoundationDB's latency probes against the engine, then
 * writes the status document ({@link StatusDocument}).
 *
 * <p>The probes are those of FoundationDB's {@code latencyProbeFetcher}: the time to start a
 * transaction at immediate, default and batch priority; to read {@code \xff/StatusJsonTestKey62793}
 * in the immediate-priority transaction; and to commit a transaction that only makes itself
 * conflict ({@code makeSelfConflicting}: a read and a write conflict range on a random
 * {@code \xff/SC/} key) at the immediate transaction's read version. Each retries through
 * {@code onError} as FoundationDB's do, so the probes see the engine's latency model and
 * injected faults as any transaction would; one that fails for good makes the database
 * unavailable in the document and says why.
 */
final class StatusJson {
    /** The key FoundationDB's read probe reads. */
    static final byte[] READ_PROBE_KEY = "\u00ff/StatusJsonTestKey62793".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] SELF_CONFLICT_PREFIX = "\u00ff/SC/".getBytes(StandardCharsets.ISO_8859_1);

    private StatusJson() {
    }

    static CompletableFuture<byte[]> of(TransactionSpecialKeys tx) {
        EngineDatabase db = tx.database();
        List<String> failures = new ArrayList<>();
        Transaction immediate = db.createTransaction();
        long start = System.nanoTime();
        CompletableFuture<Double> immediateStart = attempt(immediate, t -> {
            t.options().setPrioritySystemImmediate();
            t.options().setLockAware();
            return t.getReadVersion();
        }).thenApply(rv -> seconds(start));
        CompletableFuture<Double> defaultStart = timed(db, t -> t.getReadVersion());
        CompletableFuture<Double> batchStart = timed(db, t -> {
            t.options().setPriorityBatch();
            return t.getReadVersion();
        });
        CompletableFuture<Double> read = immediateStart.thenCompose(ignored -> {
            long readStart = System.nanoTime();
            return attempt(immediate, t -> {
                t.options().setLockAware();
                t.options().setReadSystemKeys();
                return t.get(READ_PROBE_KEY);
            }).thenApply(v -> seconds(readStart));
        });
        CompletableFuture<Double> commit = immediateStart.thenCompose(ignored -> immediate.getReadVersion()).thenCompose(rv -> {
            Transaction write = db.createTransaction();
            write.setReadVersion(rv);
            long commitStart = System.nanoTime();
            return attempt(write, t -> {
                t.options().setLockAware();
                t.options().setPrioritySystemImmediate();
                t.options().setAccessSystemKeys();
                byte[] key = ByteKeys.concat(SELF_CONFLICT_PREFIX, io.strata.engine.cluster.ProcessInfo.uid().getBytes(StandardCharsets.US_ASCII));
                t.addReadConflictKey(key);
                t.addWriteConflictKey(key);
                return t.commit();
            }).whenComplete((v, e) -> write.close()).thenApply(v -> seconds(commitStart));
        });
        List<CompletableFuture<Double>> all = List.of(immediateStart, defaultStart, batchStart, read, commit);
        return CompletableFuture.allOf(all.stream().map(f -> f.handle((v, e) -> null)).toArray(CompletableFuture[]::new))
                .thenApply(ignored -> {
                    immediate.close();
                    StatusDocument.Probes probes = new StatusDocument.Probes(
                            outcome(immediateStart, "start immediate priority transaction", failures),
                            outcome(defaultStart, "start default priority transaction", failures),
                            outcome(batchStart, "start batch priority transaction", failures),
                            outcome(read, "read", failures),
                            outcome(commit, "commit", failures),
                            failures);
                    String json = StatusDocument.build(tx.engine(), db.connection().connectionString(),
                            SpecialKeyModules.clusterFilePath(db), probes);
                    return json.getBytes(StandardCharsets.UTF_8);
                });
    }

    /** A read-version probe in a transaction of its own, closed afterwards. */
    private static CompletableFuture<Double> timed(EngineDatabase db, Function<Transaction, CompletableFuture<Long>> body) {
        Transaction t = db.createTransaction();
        long start = System.nanoTime();
        return attempt(t, tr -> {
            tr.options().setLockAware();
            return body.apply(tr);
        }).whenComplete((v, e) -> t.close()).thenApply(v -> seconds(start));
    }

    /**
     * Runs {@code body} on {@code tr}, retrying through {@code onError} as the probes' loops do;
     * fails with the first error {@code onError} does not retry. Transactions {@code onError}
     * hands back are closed here; the first one is the caller's.
     */
    private static <T> CompletableFuture<T> attempt(Transaction tr, Function<Transaction, CompletableFuture<T>> body) {
        return TransactionOverloads.applySafely(body, tr).handle((value, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(value);
            }
            return tr.onError(EngineTransaction.unwrap(error)).thenCompose(next -> {
                CompletableFuture<T> retried = attempt(next, body);
                return retried.whenComplete((v, e) -> next.close());
            });
        }).thenCompose(f -> f);
    }

    /** A probe's time, or null with the reason FoundationDB would give for its failure. */
    private static Double outcome(CompletableFuture<Double> probe, String description, List<String> failures) {
        try {
            return probe.join();
        } catch (RuntimeException e) {
            Throwable cause = EngineTransaction.unwrap(e);
            String what = cause instanceof FDBException ? cause.getMessage() : String.valueOf(cause);
            failures.add("Unable to retrieve latency probe information (" + description + ": " + what + ").");
            return null;
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
