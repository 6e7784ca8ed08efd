package io.strata.engine.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * A future handed to the caller under {@link Completion#FDB_JAVA}: it completes with the
 * engine's outcome, but only through {@code executor.execute}, as fdb-java completes its
 * futures.
 *
 * <h2>What fdb-java does (7.3.68)</h2>
 * Every future of {@code FDBTransaction} and {@code FDBDatabase} that reaches the native client
 * is a {@code NativeFuture}, whose constructor calls {@code registerMarshalCallback(executor)}
 * ({@code NativeFuture.java:50-53}): the native callback runs
 * {@code executor.execute(this::marshalWhenDone)}, and {@code marshalWhenDone} completes the
 * Java future, normally or exceptionally ({@code NativeFuture.java:56-78}). The C client calls a
 * callback registered on a future that is already ready at once, inside the registration — a
 * read answered from read-your-writes' cache, say — so even then the Java future completes
 * later, on the executor: never before the call that made it returns, unless the executor runs
 * the task inside {@code execute} ({@code Runnable::run}), when it completes before the return.
 * A failure is no different: the native future fails, the executor completes the Java future
 * exceptionally.
 *
 * <p>The native futures are those of {@code getReadVersion}, {@code get}, {@code getKey},
 * {@code getEstimatedRangeSizeBytes}, {@code getRangeSplitPoints},
 * {@code getBlobGranuleRanges}, each batch of a range or mapped range read, {@code commit},
 * {@code getVersionstamp}, {@code getApproximateSize}, {@code watch}, {@code onError} of an
 * {@code FDBException} (a stage derived from one), {@code getAddressesForKey}, and the
 * database's {@code getClientStatus} and blob-granule calls ({@code FDBTransaction.java:273-758},
 * {@code FDBDatabase.java}). Not native, and so answered in Java: {@code getCommittedVersion}
 * (a value), {@code snapshot()}, {@code options()}, {@code onError} of anything else (a future
 * already failed, {@code FDBTransaction.java:712-716}), a transaction's
 * {@code run}/{@code read}/{@code runAsync}/{@code readAsync} (the function's own future), and a
 * range iterator's {@code onHasNext} while rows are buffered or after the last batch
 * ({@code AsyncUtil.READY_TRUE}/{@code READY_FALSE}, {@code RangeQuery.java:250-257}).
 *
 * <h2>Here</h2>
 * {@link EngineTransaction} computes its answer as always and passes every future of those
 * calls to {@link #of}, which registers on the engine's future and, when that completes (at
 * once, mostly), hands the outcome to the executor. One wrapper and one executor task per
 * call: the whole cost, paid only by databases made with {@link Completion#FDB_JAVA}.
 *
 * <p>Like {@code NativeFuture}, this is a plain {@link CompletableFuture}: stages registered
 * before it completes run on the executor thread that completes it, stages registered after on
 * the registering thread (unlike {@link ExecutorBoundFuture}, whose stages always hop to the
 * executor). The outcome is the engine's, unchanged: the same value, the same exception
 * object. Cancelling it cancels the engine's future, as {@code NativeFuture.cancel} cancels the
 * native one (so a cancelled watch releases its slot) — except the read version and the
 * versionstamp, which the transaction shares among every call that asks ({@link #ofShared}).
 *
 * <h2>Concurrency</h2>
 * The outcome is written once, before {@code execute}, and read by the task: the executor's
 * hand-off orders the two. Engine futures completed on an engine thread (the sequencer, the
 * timer) run only {@link #accept} there, which submits and returns.
 */
final class MarshalledFuture<T> extends CompletableFuture<T> implements BiConsumer<T, Throwable>, Runnable {
    private final CompletableFuture<T> source;
    /** Whether cancelling this cancels {@code source}: not when the transaction shares it among calls. */
    private final boolean cancelsSource;
    private final Executor executor;
    /** The thread that made the call: it gets to go on first (see {@link #run}). */
    private final Thread caller;
    /** Set when {@link #of} returns to the call: a task that finds it unset preempted the caller. */
    private volatile boolean returned;
    private T value;
    private Throwable failure;

    private MarshalledFuture(CompletableFuture<T> source, boolean cancelsSource, Executor executor) {
        this.source = source;
        this.cancelsSource = cancelsSource;
        this.executor = executor;
        this.caller = Thread.currentThread();
    }

    /** A future that completes as {@code source} does, but through {@code executor}; cancelling it cancels {@code source}. */
    static <T> CompletableFuture<T> of(CompletableFuture<T> source, Executor executor) {
        return of(source, true, executor);
    }

    /**
     * As {@link #of(CompletableFuture, Executor)} for a {@code source} the transaction hands to
     * every such call (its read version, its versionstamp): cancelling what one caller got
     * must not cancel what the others and the transaction itself wait for.
     */
    static <T> CompletableFuture<T> ofShared(CompletableFuture<T> source, Executor executor) {
        return of(source, false, executor);
    }

    private static <T> CompletableFuture<T> of(CompletableFuture<T> source, boolean cancelsSource, Executor executor) {
        MarshalledFuture<T> f = new MarshalledFuture<>(source, cancelsSource, executor);
        if (source.isDone() && !source.isCompletedExceptionally()) {
            f.accept(source.getNow(null), null); // the common case, without a completion stage
        } else if (source instanceof ExecutorBoundFuture<T> bound) {
            // Its stages hop to the executor themselves; this one hands over on the completing thread.
            bound.whenCompleteOnCompletingThread(f);
        } else {
            source.whenComplete(f);
        }
        f.returned = true;
        return f;
    }

    /** The engine's outcome: hand it to the executor (NativeFuture's callback). */
    @Override
    public void accept(T result, Throwable error) {
        value = result;
        failure = error;
        try {
            executor.execute(this);
        } catch (RejectedExecutionException e) {
            // A shut-down executor: fdb-java's callback would throw on the network thread and the
            // future would never complete; failing it is the kinder of the two.
            completeExceptionally(e);
        }
    }

    /**
     * On the executor: complete (NativeFuture's {@code marshalWhenDone}) — after handing the
     * core back to the caller if this task preempted it.
     *
     * <p>Why: handing the task over wakes an executor thread, and Linux's scheduler often runs
     * a freshly woken thread at once on the waker's core, preempting the caller inside
     * {@code execute}, before its call returns. The task would then complete the future (and,
     * when the caller resumes, the stages it registers would run at once) before the caller
     * looked at it: on the 2-core machine, with a pool of 4 threads, 6–55% of the futures of a
     * hand-off followed by two stages were complete when the caller checked, and the Record
     * Layer's {@code ReadVersionRecordStoreStateCache} counted a cache miss as a hit in every
     * run. On a cluster that cannot happen — the answer comes from another process after a
     * round trip — and fdb-java's users count on it. So a task that runs while the call has
     * not returned yet and the caller is runnable yields once: 0.05–0.5% were complete then.
     * A caller that returned (the common case: it goes on on its own core, or waits in
     * {@code join}) costs nothing more.
     */
    @Override
    public void run() {
        if (!returned && caller != Thread.currentThread() && caller.getState() == Thread.State.RUNNABLE) {
            Thread.yield();
        }
        if (failure != null) {
            completeExceptionally(failure);
        } else {
            complete(value);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelsSource) {
            source.cancel(mayInterruptIfRunning);
        }
        return cancelled;
    }
}
