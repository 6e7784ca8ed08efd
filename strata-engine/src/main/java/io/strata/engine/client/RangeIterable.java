package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.engine.error.FdbError;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A range read, run when iterated — each {@link #iterator()} or {@link #asList()} reads
 * afresh, as fdb-java's {@code RangeQuery} does.
 *
 * <p>The iterator follows {@code RangeQuery}'s protocol: it issues its first batch read when
 * it is created (so writes made after {@code iterator()} are not in that batch), and the
 * read of the following batch when the first row of a batch is taken. Batch sizes follow the
 * streaming mode; each batch continues after the last key of the previous one and adds its
 * own read conflict range, so an iteration abandoned early conflicts only on what it read,
 * as on a real cluster. {@code remove()} clears the last key returned.
 *
 * <p>{@link #asList()} does what fdb-java's does: ITERATOR mode becomes WANT_ALL without a
 * limit and EXACT with one; EXACT reads once, any other mode collects the iterator.
 *
 * <p>Limits are the native client's: 0 is unlimited, -1 is the native "unlimited" (which
 * EXACT refuses, and which stops fdb-java's iterator after its first batch), and anything
 * below -1 fails with {@code range_limits_invalid}.
 */
final class RangeIterable implements AsyncIterable<KeyValue> {
    /** First chunk of ITERATOR mode; it doubles up to {@link #MAX_CHUNK} as iteration goes on. */
    static final int FIRST_ITERATOR_CHUNK = 256;
    /** Largest chunk: bounds the memory one read step holds. */
    static final int MAX_CHUNK = 10_000;
    /** The native client's ROW_LIMIT_UNLIMITED, reachable through fdb-java's int limits. */
    static final int NATIVE_UNLIMITED = -1;

    private final EngineTransaction tx;
    private final KeySelector begin;
    private final KeySelector end;
    private final int limit;
    private final boolean reverse;
    private final StreamingMode mode;
    private final boolean snapshot;

    RangeIterable(EngineTransaction tx, KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode, boolean snapshot) {
        this.tx = tx;
        this.begin = begin;
        this.end = end;
        this.limit = limit;
        this.reverse = reverse;
        this.mode = mode == null ? StreamingMode.ITERATOR : mode;
        this.snapshot = snapshot;
    }

    /** One read as the native client takes it: EXACT needs a row limit, then the transaction validates the rest. */
    private CompletableFuture<ReadView.Rows> read(KeySelector b, KeySelector e, int rows, StreamingMode m) {
        if (m == StreamingMode.EXACT && (rows == 0 || rows == NATIVE_UNLIMITED)) {
            return CompletableFuture.failedFuture(FdbError.EXACT_MODE_WITHOUT_LIMITS.exception());
        }
        return tx.readRange(b, e, rows, reverse, snapshot);
    }

    @Override
    public CompletableFuture<List<KeyValue>> asList() {
        StreamingMode m = mode;
        if (m == StreamingMode.ITERATOR) {
            m = limit == 0 ? StreamingMode.WANT_ALL : StreamingMode.EXACT;
        }
        if (m == StreamingMode.EXACT) {
            return read(begin, end, limit, m).thenApply(rows -> ownCopies(rows.rows()));
        }
        CompletableFuture<List<KeyValue>> result = new CompletableFuture<>();
        collect(new ChunkIterator(m), new ArrayList<>(), result);
        return result;
    }

    /**
     * What the caller gets: its own arrays, as from fdb-java. The rows themselves keep the
     * store's, which the iterator goes on from.
     */
    private static KeyValue ownCopy(KeyValue kv) {
        return new KeyValue(kv.getKey().clone(), kv.getValue().clone());
    }

    private static List<KeyValue> ownCopies(List<KeyValue> rows) {
        List<KeyValue> out = new ArrayList<>(rows.size());
        for (KeyValue kv : rows) {
            out.add(ownCopy(kv));
        }
        return out;
    }

    /** Drains {@code it} into {@code out} without blocking a thread. */
    private static void collect(AsyncIterator<KeyValue> it, List<KeyValue> out, CompletableFuture<List<KeyValue>> result) {
        while (true) {
            CompletableFuture<Boolean> has = it.onHasNext();
            if (!has.isDone() || has.isCompletedExceptionally()) {
                has.whenComplete((more, error) -> {
                    if (error != null) {
                        result.completeExceptionally(EngineTransaction.unwrap(error));
                    } else if (!more) {
                        result.complete(out);
                    } else {
                        out.add(it.next());
                        collect(it, out, result);
                    }
                });
                return;
            }
            if (!has.join()) {
                result.complete(out);
                return;
            }
            out.add(it.next());
        }
    }

    @Override
    public AsyncIterator<KeyValue> iterator() {
        return new ChunkIterator(mode);
    }

    private static int firstChunk(StreamingMode m) {
        return switch (m) {
            case WANT_ALL, EXACT -> 0;
            case SMALL -> 256;
            case MEDIUM -> 1_000;
            case LARGE, SERIAL -> 4_000;
            default -> FIRST_ITERATOR_CHUNK;
        };
    }

    /**
     * Reads batch after batch, one ahead of the consumer, as fdb-java's
     * {@code AsyncRangeIterator}: {@code current} is being consumed, {@code following} is a
     * batch that arrived before {@code current} was used up.
     */
    private final class ChunkIterator implements AsyncIterator<KeyValue> {
        private final StreamingMode batchMode;
        private final boolean rowsLimited = limit != 0;
        private KeySelector nextBegin = begin;
        private KeySelector nextEnd = end;
        private int rowsRemaining = limit;
        private int chunk;
        private ReadView.Rows current;
        private ReadView.Rows following;
        private int index;
        private CompletableFuture<Boolean> nextFuture;
        private byte[] prevKey;
        private boolean cancelled;

        ChunkIterator(StreamingMode batchMode) {
            this.batchMode = batchMode;
            this.chunk = firstChunk(batchMode);
            synchronized (this) {
                startFetch();
            }
        }

        private boolean currentIsLast() {
            return !current.more() || (rowsLimited && rowsRemaining < 1);
        }

        /** Reads the batch after the last row read so far, unless the range is done. */
        private void startFetch() {
            if (cancelled || (current != null && currentIsLast())) {
                return;
            }
            // Rows to ask for: the batch size, capped by what the limit leaves (none for 0 and -1);
            // a limit below -1 goes through as is, for the transaction to refuse.
            int want;
            if (rowsRemaining < NATIVE_UNLIMITED) {
                want = rowsRemaining;
            } else {
                int cap = rowsLimited && rowsRemaining > 0 ? rowsRemaining : 0;
                want = chunk == 0 ? cap : (cap == 0 ? chunk : Math.min(chunk, cap));
                if (want == 0 && rowsRemaining == NATIVE_UNLIMITED) {
                    want = NATIVE_UNLIMITED;
                }
            }
            if (chunk > 0) {
                chunk = Math.min(chunk * 2, MAX_CHUNK);
            }
            CompletableFuture<Boolean> promise = new CompletableFuture<>();
            nextFuture = promise;
            // May complete at once, running fetched() here under this (reentrant) lock.
            read(nextBegin, nextEnd, want, batchMode).whenComplete((rows, error) -> fetched(promise, rows, error));
        }

        private void fetched(CompletableFuture<Boolean> promise, ReadView.Rows rows, Throwable error) {
            if (error != null) {
                promise.completeExceptionally(EngineTransaction.unwrap(error));
                return;
            }
            if (rows.rows().isEmpty()) {
                promise.complete(false);
                return;
            }
            synchronized (this) {
                List<KeyValue> r = rows.rows();
                if (rowsLimited) {
                    rowsRemaining -= r.size();
                }
                byte[] last = r.get(r.size() - 1).getKey();
                if (reverse) {
                    nextEnd = KeySelector.firstGreaterOrEqual(last);
                } else {
                    nextBegin = KeySelector.firstGreaterThan(last);
                }
                if (current == null || index == current.rows().size()) {
                    current = rows;
                    following = null;
                    index = 0;
                } else {
                    following = rows;
                }
            }
            promise.complete(true);
        }

        @Override
        public synchronized CompletableFuture<Boolean> onHasNext() {
            if (cancelled) {
                throw new CancellationException();
            }
            if (current == null) {
                return nextFuture;
            }
            if (index < current.rows().size()) {
                return CompletableFuture.completedFuture(true);
            }
            return currentIsLast() ? CompletableFuture.completedFuture(false) : nextFuture;
        }

        @Override
        public boolean hasNext() {
            return onHasNext().join();
        }

        @Override
        public KeyValue next() {
            CompletableFuture<Boolean> has;
            synchronized (this) {
                if (cancelled) {
                    throw new CancellationException();
                }
                if (current != null && index < current.rows().size()) {
                    boolean firstOfBatch = index == 0;
                    KeyValue kv = current.rows().get(index++);
                    prevKey = kv.getKey();
                    if (index == current.rows().size() && following != null) {
                        current = following;
                        following = null;
                        index = 0;
                    }
                    if (firstOfBatch) {
                        startFetch();
                    }
                    return ownCopy(kv);
                }
                has = onHasNext();
            }
            // Wait outside the lock: the batch completes on another thread, which needs it.
            if (has.join()) {
                return next();
            }
            throw pastTheEnd();
        }

        /**
         * What fdb-java's {@code next()} throws past the end: it raises the
         * {@code NoSuchElementException} inside {@code thenApply} and joins, so the caller gets
         * it wrapped in a {@code CompletionException}.
         */
        private CompletionException pastTheEnd() {
            return new CompletionException(new NoSuchElementException());
        }

        @Override
        public void remove() {
            byte[] key;
            synchronized (this) {
                key = prevKey;
            }
            if (key == null) {
                throw new IllegalStateException("No value has been fetched from database");
            }
            tx.clear(key);
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
            if (nextFuture != null) {
                nextFuture.cancel(true);
            }
        }
    }
}
