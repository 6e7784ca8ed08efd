package io.strata.redis.commands;

import com.apple.foundationdb.async.AsyncUtil;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Tries a command's keys one after another until one answers: the first-non-empty-key rule of
 * BLPOP, BRPOP, LMPOP, BZPOPMIN, ZMPOP and their kin.
 *
 * <p>Why a loop and not recursion: each try is a future, and on the embedded engine most are
 * already complete when returned, so a try that calls the next from its continuation nests one
 * stack frame group per key — a BRPOP of a few thousand keys (Redis takes any number) ran out of
 * stack. {@link AsyncUtil#whileTrue} runs completed steps in a loop; a step that completes later
 * continues the loop on the thread that completed it (the direct executor), as a chain of
 * {@code thenCompose} would, and without touching fdb-java's default executor (its class loads
 * the native client).
 */
final class KeysInTurn {
    private KeysInTurn() {
    }

    /**
     * Calls {@code attempt} for {@code 0, 1, ...} up to {@code keys - 1}, in turn, each after the
     * previous one's future completed with null; the first non-null result, or null if none.
     * A failure ends the turns with that failure.
     */
    static <T> CompletableFuture<T> firstOf(int keys, IntFunction<CompletableFuture<T>> attempt) {
        int[] next = {0};
        AtomicReference<T> found = new AtomicReference<>();
        return AsyncUtil.whileTrue(() -> {
            if (next[0] >= keys) {
                return AsyncUtil.READY_FALSE;
            }
            return attempt.apply(next[0]++).thenApply(result -> {
                found.set(result);
                return result == null;
            });
        }, Runnable::run).thenApply(ignored -> found.get());
    }
}
