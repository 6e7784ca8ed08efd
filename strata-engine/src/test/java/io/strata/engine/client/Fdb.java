package io.strata.engine.client;

import com.apple.foundationdb.FDBException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Helpers shared by the commit-path and lifecycle tests: byte strings, and the FoundationDB
 * error code a call or a future ends with. Every wait is bounded (10 s) so that a hang fails
 * the test instead of the build.
 */
final class Fdb {
    static final long WAIT_SECONDS = 10;

    private Fdb() {}

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(int length, int fill) {
        byte[] out = new byte[length];
        java.util.Arrays.fill(out, (byte) fill);
        return out;
    }

    /** The committed value of {@code key}, read in a fresh transaction. */
    static byte[] valueOf(com.apple.foundationdb.Database db, String key) {
        byte[] k = b(key);
        return db.read(tr -> tr.get(k).join());
    }

    /** Waits for {@code f} and returns its value, rethrowing its failure unwrapped. */
    static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new AssertionError("future failed", cause);
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("future did not complete within " + WAIT_SECONDS + " s", e);
        }
    }

    /** The code of the {@link FDBException} {@code f} fails with; fails the test if it succeeds. */
    static int errorOf(CompletableFuture<?> f) {
        try {
            f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return code(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("future did not complete within " + WAIT_SECONDS + " s", e);
        }
        throw new AssertionError("expected the future to fail, but it succeeded");
    }

    /** The code of the {@link FDBException} a call throws, or that the future it returns fails with. */
    static int errorOf(Supplier<? extends CompletableFuture<?>> call) {
        CompletableFuture<?> f;
        try {
            f = call.get();
        } catch (RuntimeException e) {
            return code(e);
        }
        return errorOf(f);
    }

    /**
     * The code of an error a void call may raise at once or defer to the next operation, as
     * FoundationDB's client does: runs {@code call}, and if it returns normally, runs
     * {@code next} and takes its error.
     */
    static int deferredErrorOf(Runnable call, Supplier<? extends CompletableFuture<?>> next) {
        try {
            call.run();
        } catch (RuntimeException e) {
            return code(e);
        }
        return errorOf(next);
    }

    static int code(Throwable t) {
        Throwable u = EngineTransaction.unwrap(t);
        if (!(u instanceof FDBException)) {
            throw new AssertionError("expected an FDBException, got " + t, t);
        }
        return ((FDBException) u).getCode();
    }

    /** A settable monotonic clock for {@code Strata.builder().nanoTime(...)}. */
    static final class FakeClock implements LongSupplier {
        private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

        @Override
        public long getAsLong() {
            return nanos.get();
        }

        void advance(Duration d) {
            nanos.addAndGet(d.toNanos());
        }
    }
}
