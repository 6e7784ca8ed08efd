package io.strata.engine.client;

import io.strata.engine.Engine;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.util.ByteKeys;
import io.strata.engine.watch.Watch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The watches of one transaction that wait for it to commit, with RYW's bookkeeping for each
 * ({@code Watch} in {@code NativeAPI}): fire at once on a differing own write
 * ({@code triggerWatches}), fail with the transaction, or become active in the engine's
 * watch registry at commit ({@code setupWatches}).
 *
 * <p>Separate from {@link EngineTransaction} so the transaction keeps only the decisions
 * (when a watch may be made, when the commit fails or succeeds) and this class the per-watch
 * rules. The transaction validates and creates each watch, and reads its key.
 *
 * <h2>Concurrency</h2>
 * The list is guarded by the owning transaction's monitor ({@code lock}): the methods that
 * touch it are called with that monitor held, except {@link #onWatchRead}, which runs on a
 * completion and takes it. {@link #fail} and {@link #activate} work on watches already taken
 * from the list, so the commit may call them after releasing the monitor. Futures are
 * completed on the transaction's executor.
 */
final class TransactionWatches {
    /**
     * A watch waiting for its transaction to commit, with what RYW tracks for it
     * ({@code Watch} in {@code NativeAPI}): the value its read saw, and whether the
     * transaction has since written the key itself.
     */
    static final class PendingWatch {
        final byte[] key;
        final CompletableFuture<Void> future;
        /** The watch's read of the key: what the watch compares against once active. */
        CompletableFuture<byte[]> read;
        boolean valuePresent;
        byte[] value;
        boolean setPresent;
        byte[] setValue;

        PendingWatch(byte[] key, CompletableFuture<Void> future) {
            this.key = key;
            this.future = future;
        }
    }

    private final Object lock;
    private final Engine engine;
    private final Executor executor;
    /** Guarded by {@code lock}. */
    private final List<PendingWatch> watches = new ArrayList<>(0);

    TransactionWatches(Object lock, Engine engine, Executor executor) {
        this.lock = lock;
        this.engine = engine;
        this.executor = executor;
    }

    boolean isEmpty() {
        return watches.isEmpty();
    }

    /** Registers a new pending watch of {@code key}; the caller then starts its read. */
    PendingWatch add(byte[] key, CompletableFuture<Void> future) {
        PendingWatch p = new PendingWatch(key, future);
        watches.add(p);
        return p;
    }

    /** Removes every pending watch and returns them, for the commit to settle. */
    List<PendingWatch> takeAll() {
        List<PendingWatch> list = new ArrayList<>(watches);
        watches.clear();
        return list;
    }

    /** Removes every pending watch, adding its future to {@code out} (cancel and timeout fail them). */
    void drainFuturesInto(List<CompletableFuture<?>> out) {
        for (PendingWatch w : watches) {
            out.add(w.future);
        }
        watches.clear();
    }

    /** Removes every pending watch and fails it with {@code e} on the executor. */
    void failAll(Throwable e) {
        for (PendingWatch w : watches) {
            CompletableFuture<Void> f = w.future;
            executor.execute(() -> f.completeExceptionally(e));
        }
        watches.clear();
    }

    /** Fails the watches of {@code list}, taken earlier with {@link #takeAll()}, with {@code e}. */
    void fail(List<PendingWatch> list, Throwable e) {
        for (PendingWatch w : list) {
            executor.execute(() -> w.future.completeExceptionally(e));
        }
    }

    /** The watch's read finished: it fails with the read, or fires if an own write already differs. */
    void onWatchRead(PendingWatch p, byte[] value, Throwable error) {
        boolean fire = false;
        synchronized (lock) {
            if (p.future.isDone()) {
                return;
            }
            if (error == null) {
                p.valuePresent = true;
                p.value = value;
                fire = p.setPresent && !Arrays.equals(p.setValue, value);
            }
            if (error != null || fire) {
                watches.remove(p);
            }
        }
        if (error != null) {
            Throwable cause = EngineTransaction.unwrap(error);
            executor.execute(() -> p.future.completeExceptionally(cause));
        } else if (fire) {
            executor.execute(() -> p.future.complete(null));
        }
    }

    /**
     * RYW {@code triggerWatches}: this transaction wrote the keys in {@code [begin, end)}. A
     * pending watch there fires at once, before any commit, if the write gives the key a value
     * other than the one the watch saw (or than an earlier own write), or one not known until
     * commit (an atomic operation); otherwise the watch notes the written value.
     */
    /** {@link #trigger(byte[], byte[], byte[], boolean)} for a set of {@code key} to {@code newValue}. */
    void trigger(byte[] key, byte[] newValue) {
        if (!watches.isEmpty()) {
            trigger(key, ByteKeys.keyAfter(key), newValue, true);
        }
    }

    void trigger(byte[] begin, byte[] end, byte[] newValue, boolean valueKnown) {
        if (watches.isEmpty()) {
            return;
        }
        for (Iterator<PendingWatch> it = watches.iterator(); it.hasNext(); ) {
            PendingWatch p = it.next();
            if (ByteKeys.compare(p.key, begin) < 0 || ByteKeys.compare(p.key, end) >= 0) {
                continue;
            }
            if (p.future.isDone()) {
                it.remove();
            } else if (!valueKnown
                    || (p.setPresent && !Arrays.equals(p.setValue, newValue))
                    || (p.valuePresent && !Arrays.equals(p.value, newValue))) {
                it.remove();
                CompletableFuture<Void> f = p.future;
                executor.execute(() -> f.complete(null));
            } else {
                p.setPresent = true;
                p.setValue = newValue;
            }
        }
    }

    /**
     * Activates pending watches after commit ({@code setupWatches}): each compares the value
     * its read saw with the key's value from now on, so a change since that read fires it at
     * once. (A differing own write already fired it.)
     */
    void activate(List<PendingWatch> list) {
        for (PendingWatch p : list) {
            p.read.whenComplete((seen, error) -> {
                if (error != null) {
                    Throwable cause = EngineTransaction.unwrap(error);
                    executor.execute(() -> p.future.completeExceptionally(cause));
                    return;
                }
                // \xff/keyServers/ is computed, not stored (VirtualSystemKeys): compare with what was read.
                engine.pipeline().execute(() -> engine.watches().register(new Watch(p.key, seen, p.future, executor),
                        ShardMap.isKeyServersKey(p.key) ? seen : engine.store().latest(p.key)));
            });
            p.future.whenComplete((v, t) -> {
                if (p.future.isCancelled()) {
                    engine.pipeline().execute(() -> engine.watches().remove(p.key, p.future));
                }
            });
        }
    }
}
