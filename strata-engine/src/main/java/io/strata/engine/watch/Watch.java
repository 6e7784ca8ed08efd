package io.strata.engine.watch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One watch: the key, the value its transaction saw, and the user's future, which
 * completes on the transaction's executor so that user callbacks never run on the sequencer.
 */
public final class Watch {
    private final byte[] key;
    private final byte[] expected;
    private final CompletableFuture<Void> future;
    private final Executor executor;

    public Watch(byte[] key, byte[] expected, CompletableFuture<Void> future, Executor executor) {
        this.key = key;
        this.expected = expected;
        this.future = future;
        this.executor = executor;
    }

    public byte[] key() {
        return key;
    }

    public byte[] expected() {
        return expected;
    }

    public CompletableFuture<Void> future() {
        return future;
    }

    boolean isDone() {
        return future.isDone();
    }

    void fire() {
        executor.execute(() -> future.complete(null));
    }
}
