package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncUtil;
import io.strata.Strata;
import io.strata.engine.Engine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static io.strata.engine.client.Fdb.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Record Layer's tests found when futures completed before they were returned, each
 * reduced to the pattern that tells the two apart, run under {@link Completion#FDB_JAVA} (as
 * fdb-java behaves) and, for contrast, under {@link Completion#IMMEDIATE}.
 */
class FdbJavaCompletionRegressionTest {
    private final Engine engine = Strata.builder().inMemoryEngine();
    private final QueuedExecutor queue = new QueuedExecutor();
    private final Database likeFdbJava = EngineDatabase.handle(engine, queue, null, Connection.direct("strata:memory"), null,
            Completion.FDB_JAVA);
    private final Database immediate = EngineDatabase.handle(engine, queue, null, Connection.direct("strata:memory"), null,
            Completion.IMMEDIATE);

    @AfterEach
    void close() {
        queue.runQueued();
        likeFdbJava.close();
        immediate.close();
        engine.close();
    }

    private void put(String key, String value) {
        try (Database setup = EngineDatabase.handle(engine, engine.pool(), null, Connection.direct("strata:memory"), null,
                Completion.IMMEDIATE)) {
            setup.run(t -> {
                t.set(b(key), b(value));
                return null;
            });
        }
    }

    // ---------------------------------------------------------------- ExtendedDirectoryLayerTest#testExtendedSeesUpdate

    /**
     * {@code ExtendedDirectoryLayerTest.loopSeesUpdate}: a loop of {@code AsyncUtil.whileTrue}
     * retries a read until the key exists, and only the caller, after {@code whileTrue} returns,
     * creates it. {@code whileTrue} runs the body on the caller's thread for as long as the
     * body's futures are already complete; fdb-java's never are, so it returns after the first
     * read and the loop goes on on the executor.
     */
    @Test
    void aPollingLoopYieldsToItsCallerAndEndsWhenAnotherTransactionWrites() throws Exception {
        try (Database db = Strata.builder().completeLikeFdbJava().inMemory()) {
            byte[] key = b("a-key");
            AtomicReference<byte[]> fromLoop = new AtomicReference<>();
            AtomicInteger attempts = new AtomicInteger();
            Thread caller = Thread.currentThread();
            CompletableFuture<Void> loop = AsyncUtil.whileTrue(() -> {
                if (attempts.incrementAndGet() > 10_000 && Thread.currentThread() == caller) {
                    // Still on the caller's thread: the loop never yielded. Stop, so that this
                    // fails below instead of spinning for ever as the Record Layer's test did.
                    return CompletableFuture.completedFuture(false);
                }
                Transaction tr = db.createTransaction();
                // As LocatableResolver.mustResolve: a missing key is a failed future.
                return tr.get(key).thenApply(value -> {
                    if (value == null) {
                        throw new NoSuchElementException("not yet");
                    }
                    return value;
                }).handle((value, error) -> {
                    tr.close();
                    if (error != null) {
                        return true;
                    }
                    fromLoop.set(value);
                    return false;
                });
            }, db.getExecutor());
            assertThat(fromLoop.get()).as("the loop returned to its caller before it saw the key").isNull();
            db.run(tr -> {
                tr.set(key, b("allocated"));
                return null;
            });
            loop.get(10, TimeUnit.SECONDS);
            assertThat(fromLoop.get()).isEqualTo(b("allocated"));
        }
    }

    /** The same loop under immediate completion never leaves the caller's thread: bounded here, it ran every attempt before returning. */
    @Test
    void underImmediateCompletionAPollingLoopNeverYields() {
        AtomicInteger attempts = new AtomicInteger();
        Thread caller = Thread.currentThread();
        AtomicInteger onCaller = new AtomicInteger();
        CompletableFuture<Void> loop = AsyncUtil.whileTrue(() -> {
            if (Thread.currentThread() == caller) {
                onCaller.incrementAndGet();
            }
            Transaction tr = immediate.createTransaction();
            return tr.get(b("absent")).handle((value, error) -> {
                tr.close();
                return attempts.incrementAndGet() < 1_000;
            });
        }, queue);
        assertThat(loop).as("whileTrue returned only when the loop was over").isDone();
        assertThat(onCaller.get()).isEqualTo(1_000);

        attempts.set(0);
        onCaller.set(0);
        CompletableFuture<Void> yielding = AsyncUtil.whileTrue(() -> {
            if (Thread.currentThread() == caller) {
                onCaller.incrementAndGet();
            }
            Transaction tr = likeFdbJava.createTransaction();
            return tr.get(b("absent")).handle((value, error) -> {
                tr.close();
                return attempts.incrementAndGet() < 1_000;
            });
        }, queue);
        assertThat(yielding).as("fdb-java's completion: whileTrue returns after the first read").isNotDone();
        assertThat(attempts.get()).isZero();
        queue.settle(yielding);
        assertThat(yielding).isCompleted();
        assertThat(attempts.get()).isEqualTo(1_000);
    }

    // ---------------------------------------------------------------- MetricsCollectionTest#canRecoverRecordLayerMetrics

    /**
     * {@code FDBDatabase.asyncToSync} times a wait ("wait for load record") only when the future
     * it is given is not done yet. A record load composed of reads the transaction's cache
     * answers is, under fdb-java's completion, still a wait.
     */
    @Test
    void aLoadComposedOfCachedReadsIsStillAWait() {
        put("record", "r");
        put("version", "1");
        assertThat(loadIsDoneWhenReturned(likeFdbJava)).as("fdb-java's completion: asyncToSync waits, and times it").isFalse();
        assertThat(loadIsDoneWhenReturned(immediate)).as("immediate completion: asyncToSync returns at once").isTrue();
    }

    private boolean loadIsDoneWhenReturned(Database db) {
        Transaction tr = db.createTransaction();
        // Both keys read once: the second time, the read cache answers.
        queue.await(tr.get(b("record")));
        queue.await(tr.get(b("version")));
        CompletableFuture<byte[]> load = tr.get(b("record")).thenCompose(record -> tr.get(b("version")));
        boolean done = load.isDone();
        queue.await(load);
        tr.close();
        return done;
    }

    // ---------------------------------------------------------------- FDBRecordStoreStateCacheTest#cacheByReadVersion

    /**
     * {@code ReadVersionRecordStoreStateCache.get}: after the read version, take the store state
     * from a cache keyed by read version (loading it on a miss) and count a hit when the
     * resulting future is already complete. A second transaction at the same read version is
     * the one hit; a miss, whose load reads the store, is no hit — unless the load is complete
     * when returned.
     */
    @Test
    void aCacheByReadVersionCountsOneHitForTwoTransactionsAtOneVersion() {
        put("store-header", "h");
        assertThat(hitsForTwoTransactionsAtOneReadVersion(likeFdbJava)).isEqualTo(1);
        assertThat(hitsForTwoTransactionsAtOneReadVersion(immediate)).as("the miss counted as a hit too").isEqualTo(2);
    }

    private int hitsForTwoTransactionsAtOneReadVersion(Database db) {
        Map<Long, CompletableFuture<byte[]>> cache = new HashMap<>();
        AtomicInteger hits = new AtomicInteger();
        AtomicInteger misses = new AtomicInteger();
        Function<Transaction, CompletableFuture<byte[]>> storeState = tr -> tr.getReadVersion().thenCompose(readVersion -> {
            CompletableFuture<byte[]> state = cache.computeIfAbsent(readVersion, v -> {
                misses.incrementAndGet();
                return tr.get(b("store-header"));
            }).thenApply(header -> {
                tr.addReadConflictKey(b("store-header")); // handleCachedState: no read, a conflict range
                return header;
            });
            if (state.isDone() && !state.isCompletedExceptionally()) {
                hits.incrementAndGet();
            }
            return state;
        });
        Transaction first = db.createTransaction();
        queue.await(storeState.apply(first));
        long readVersion = queue.await(first.getReadVersion());
        Transaction second = db.createTransaction();
        second.setReadVersion(readVersion);
        queue.await(storeState.apply(second));
        first.close();
        second.close();
        assertThat(misses.get()).isEqualTo(1);
        return hits.get();
    }
}
