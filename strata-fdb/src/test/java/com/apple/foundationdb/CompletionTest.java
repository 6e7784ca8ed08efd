package com.apple.foundationdb;

import com.apple.foundationdb.async.AsyncUtil;
import com.apple.foundationdb.async.CloseableAsyncIterator;
import io.strata.ClusterFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The databases {@code FDB.open} hands out complete their futures as fdb-java's do: through the
 * transaction's executor, never already complete when the call returns (the engine's side is
 * pinned call by call in strata-engine's {@code FdbJavaCompletionTest}).
 */
class CompletionTest {
    private FDB fdb;

    @BeforeEach
    void select() {
        fdb = FreshApi.select(730);
        System.setProperty(ClusterFile.DATABASE_PROPERTY, "strata:memory:completion");
    }

    @AfterEach
    void forget() {
        System.clearProperty(ClusterFile.DATABASE_PROPERTY);
        FreshApi.reset();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Queues what it is given until the test runs it: "not complete when returned" is then deterministic. */
    private static final class Queue implements Executor {
        final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
        final ThreadLocal<Boolean> inTask = ThreadLocal.withInitial(() -> false);

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        <T> T await(CompletableFuture<T> f) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!f.isDone() && System.nanoTime() < deadline) {
                Runnable task = tasks.poll(10, TimeUnit.MILLISECONDS);
                if (task != null) {
                    inTask.set(true);
                    try {
                        task.run();
                    } finally {
                        inTask.set(false);
                    }
                }
            }
            return f.get(1, TimeUnit.SECONDS);
        }
    }

    @Test
    void aReadItsOwnWritesAnswerCompletesOnTheExecutorAfterReturning() throws Exception {
        Queue queue = new Queue();
        try (Database db = fdb.open(null, queue)) {
            Transaction tr = db.createTransaction();
            tr.set(b("k"), b("own"));
            CompletableFuture<byte[]> read = tr.get(b("k"));
            assertThat(read).isNotDone();
            AtomicBoolean onExecutor = new AtomicBoolean();
            read.whenComplete((v, e) -> onExecutor.set(queue.inTask.get()));
            assertThat(queue.await(read)).isEqualTo(b("own"));
            assertThat(onExecutor).isTrue();

            CompletableFuture<Void> commit = tr.commit();
            assertThat(commit).isNotDone();
            queue.await(commit);
            tr.close();
        }
    }

    @Test
    void localityCallsCompleteOnTheExecutor() throws Exception {
        Queue queue = new Queue();
        try (Database db = fdb.open(null, queue)) {
            Transaction tr = db.createTransaction();
            CompletableFuture<String[]> addresses = LocalityUtil.getAddressesForKey(tr, b("k"));
            assertThat(addresses).isNotDone();
            assertThat(queue.await(addresses)).containsExactly("127.0.0.1:0");
            try (CloseableAsyncIterator<byte[]> boundaries = LocalityUtil.getBoundaryKeys(db, new byte[0], new byte[] {(byte) 0xff})) {
                CompletableFuture<Boolean> first = boundaries.onHasNext();
                assertThat(first).isNotDone();
                assertThat(queue.await(first)).isTrue();
                assertThat(boundaries.next()).isEmpty();
                assertThat(queue.await(boundaries.onHasNext())).isFalse();
            }
            tr.close();
        }
    }

    /**
     * {@code ExtendedDirectoryLayerTest.loopSeesUpdate} of the Record Layer, on {@code FDB.open()}
     * and fdb-java's {@code AsyncUtil} with its default executor: the polling loop returns to
     * its caller, which creates the key the loop waits for. (Bounded: a loop that never yields
     * gives up after 10,000 attempts on the caller's thread and fails the test.)
     */
    @Test
    void aPollingLoopOverReadsYieldsToItsCaller() throws Exception {
        try (Database db = fdb.open()) {
            byte[] key = b("a-key");
            db.run(tr -> {
                tr.clear(key);
                return null;
            });
            Thread caller = Thread.currentThread();
            AtomicInteger attempts = new AtomicInteger();
            AtomicReference<byte[]> fromLoop = new AtomicReference<>();
            CompletableFuture<Void> loop = AsyncUtil.whileTrue(() -> {
                if (attempts.incrementAndGet() > 10_000 && Thread.currentThread() == caller) {
                    return CompletableFuture.completedFuture(false);
                }
                Transaction tr = db.createTransaction();
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
            });
            assertThat(fromLoop.get()).as("the loop returned to its caller before it saw the key").isNull();
            db.run(tr -> {
                tr.set(key, b("allocated"));
                return null;
            });
            loop.get(10, TimeUnit.SECONDS);
            assertThat(fromLoop.get()).isEqualTo(b("allocated"));
        }
    }
}
