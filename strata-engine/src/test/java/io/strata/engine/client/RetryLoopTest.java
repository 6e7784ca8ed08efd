package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Retry limits and backoff, and the retry loops {@code run}, {@code read}, {@code runAsync},
 * {@code readAsync}, which must behave as fdb-java's {@code FDBDatabase} does.
 */
class RetryLoopTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private static FDBException fdb(int code) {
        return new FDBException("test", code);
    }

    // ---------------------------------------------------------------- onError limits

    @Test
    void retryLimitBoundsOnError() {
        Transaction tr = db.createTransaction();
        tr.options().setRetryLimit(2);
        tr = await(tr.onError(fdb(1020)));
        tr = await(tr.onError(fdb(1020)));
        assertThat(errorOf(tr.onError(fdb(1020)))).isEqualTo(1020);
    }

    @Test
    void retryLimitZeroFailsTheFirstOnError() {
        Transaction tr = db.createTransaction();
        tr.options().setRetryLimit(0);
        assertThat(errorOf(tr.onError(fdb(1021)))).isEqualTo(1021);
    }

    @Test
    void databaseRetryLimitAppliesToRun() {
        db.options().setTransactionRetryLimit(3);
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> db.run(tr -> {
            attempts.incrementAndGet();
            throw fdb(1020);
        })).isInstanceOf(CompletionException.class).cause().isInstanceOf(FDBException.class);
        assertThat(attempts).hasValue(4);
    }

    @Test
    void maxRetryDelayBoundsTheBackoff() {
        // Uncapped, forty retries back off ~17 s in expectation (10 ms doubling to the 1 s
        // default cap); capped at 1 ms they take a few tens of milliseconds.
        Transaction tr = db.createTransaction();
        tr.options().setMaxRetryDelay(1);
        long start = System.nanoTime();
        for (int i = 0; i < 40; i++) {
            tr = await(tr.onError(fdb(1020)));
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
    }

    @Test
    void maxRetryDelayZeroRetriesWithoutDelay() {
        Transaction tr = db.createTransaction();
        tr.options().setMaxRetryDelay(0);
        for (int i = 0; i < 20; i++) {
            tr = await(tr.onError(fdb(i % 2 == 0 ? 1020 : 1007)));
        }
        await(tr.getReadVersion());
    }

    // ---------------------------------------------------------------- run

    @Test
    void runRetriesNotCommittedUntilTheFunctionSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        String result = db.run(tr -> {
            if (attempts.incrementAndGet() < 3) {
                throw fdb(1020);
            }
            tr.set(b("k"), b("v"));
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(attempts).hasValue(3);
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
    }

    @Test
    void runRetriesARealConflict() {
        AtomicInteger attempts = new AtomicInteger();
        db.run(tr -> {
            byte[] seen = tr.get(b("k")).join();
            if (attempts.incrementAndGet() == 1) {
                db.run(other -> {
                    other.set(b("k"), b("interloper"));
                    return null;
                });
            }
            tr.set(b("k"), seen == null ? b("first") : b("after " + new String(seen)));
            return null;
        });
        assertThat(attempts).hasValue(2);
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("after interloper"));
    }

    @Test
    void runRethrowsANonRetryableErrorAsCompletionExceptionOfFdbException() {
        assertThatThrownBy(() -> db.run(tr -> {
            tr.set(new byte[] {(byte) 0xff}, b("v"));
            return null;
        })).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(FDBException.class)
                .satisfies(e -> assertThat(((FDBException) e).getCode()).isEqualTo(2004));
    }

    @Test
    void runRethrowsAUserExceptionAsCompletionException() {
        IllegalStateException boom = new IllegalStateException("boom");
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> db.run(tr -> {
            attempts.incrementAndGet();
            throw boom;
        })).isInstanceOf(CompletionException.class).hasCause(boom);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void runClosesItsTransaction() {
        AtomicReference<Transaction> used = new AtomicReference<>();
        db.run(tr -> {
            used.set(tr);
            return null;
        });
        assertThatThrownBy(() -> used.get().get(b("k"))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void runDoesNotCommitAfterANonRetryableError() {
        assertThatThrownBy(() -> db.run(tr -> {
            tr.set(b("k"), b("v"));
            throw fdb(2000);
        })).isInstanceOf(CompletionException.class);
        assertThat(Fdb.valueOf(db, "k")).isNull();
    }

    // ---------------------------------------------------------------- read

    @Test
    void readRetriesNotCommitted() {
        AtomicInteger attempts = new AtomicInteger();
        Integer result = db.read(tr -> {
            if (attempts.incrementAndGet() < 2) {
                throw fdb(1020);
            }
            return 42;
        });
        assertThat(result).isEqualTo(42);
        assertThat(attempts).hasValue(2);
    }

    @Test
    void readRethrowsANonRetryableError() {
        assertThatThrownBy(() -> db.read(tr -> {
            throw fdb(2000);
        })).isInstanceOf(CompletionException.class).cause().isInstanceOf(FDBException.class);
    }

    @Test
    void readCommitsLikeFdbJavaDoes() {
        // FDBDatabase.read delegates to run, so a write made through a cast is committed.
        db.read(tr -> {
            ((Transaction) tr).set(b("k"), b("v"));
            return null;
        });
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
    }

    // ---------------------------------------------------------------- runAsync and readAsync

    @Test
    void runAsyncRetriesNotCommitted() {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> f = db.runAsync(tr -> {
            if (attempts.incrementAndGet() < 3) {
                return CompletableFuture.failedFuture(fdb(1020));
            }
            tr.set(b("k"), b("v"));
            return CompletableFuture.completedFuture("done");
        });
        assertThat(await(f)).isEqualTo("done");
        assertThat(attempts).hasValue(3);
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
    }

    @Test
    void runAsyncRetriesWhenTheFunctionThrows() {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<Integer> f = db.runAsync(tr -> {
            if (attempts.incrementAndGet() < 2) {
                throw fdb(1020);
            }
            return CompletableFuture.completedFuture(7);
        });
        assertThat(await(f)).isEqualTo(7);
    }

    @Test
    void runAsyncFailsWithANonRetryableFdbException() {
        CompletableFuture<Object> f = db.runAsync(tr -> CompletableFuture.failedFuture(fdb(2000)));
        assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(FDBException.class);
        assertThat(errorOf(f)).isEqualTo(2000);
    }

    /**
     * fdb-java's {@code FDBDatabase.runAsync} ends in {@code AsyncUtil.whileTrue(...).thenApply(...)},
     * a dependent stage, so its failure is stored as a {@code CompletionException} around the
     * cause: that is what {@code handle}, {@code whenComplete} and {@code exceptionally} see
     * ({@code bindings/java/src/main/com/apple/foundationdb/FDBDatabase.java}).
     */
    @Test
    void runAsyncFailureReachesHandlersAsCompletionException() {
        CompletableFuture<Object> f = db.runAsync(tr -> CompletableFuture.failedFuture(fdb(2000)));
        Throwable seen = await(f.handle((v, e) -> e));
        assertThat(seen).isInstanceOf(CompletionException.class).cause().isInstanceOf(FDBException.class);
    }

    @Test
    void runAsyncFailureOfAUserExceptionReachesHandlersAsCompletionException() {
        IllegalStateException boom = new IllegalStateException("boom");
        CompletableFuture<Object> f = db.runAsync(tr -> {
            throw boom;
        });
        Throwable seen = await(f.handle((v, e) -> e));
        assertThat(seen).isInstanceOf(CompletionException.class).cause().isSameAs(boom);
    }

    @Test
    void readAsyncFailureReachesHandlersAsCompletionException() {
        CompletableFuture<Object> f = db.readAsync(tr -> CompletableFuture.failedFuture(fdb(2004)));
        Throwable seen = await(f.handle((v, e) -> e));
        assertThat(seen).isInstanceOf(CompletionException.class).cause().isInstanceOf(FDBException.class);
    }

    @Test
    void runAsyncRetriesACommitConflict() {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<Void> f = db.runAsync(tr -> tr.get(b("k")).thenAccept(seen -> {
            if (attempts.incrementAndGet() == 1) {
                db.run(other -> {
                    other.set(b("k"), b("interloper"));
                    return null;
                });
            }
            tr.set(b("k"), b("mine"));
        }));
        await(f);
        assertThat(attempts).hasValue(2);
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("mine"));
    }

    @Test
    void readAsyncRetriesNotCommitted() {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<Integer> f = db.readAsync(tr -> {
            if (attempts.incrementAndGet() < 2) {
                return CompletableFuture.failedFuture(fdb(1009));
            }
            return tr.getReadVersion().thenApply(v -> 1);
        });
        assertThat(await(f)).isEqualTo(1);
        assertThat(attempts).hasValue(2);
    }

    @Test
    void readAsyncCommitsLikeFdbJavaDoes() {
        await(db.readAsync(tr -> {
            ((Transaction) tr).set(b("k"), b("v"));
            return CompletableFuture.completedFuture(null);
        }));
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
    }

    @Test
    void readAsyncFailsWithANonRetryableError() {
        CompletableFuture<Object> f = db.readAsync(tr -> CompletableFuture.failedFuture(fdb(2004)));
        assertThat(errorOf(f)).isEqualTo(2004);
    }
}
