package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MappedKeyValue;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.async.AsyncUtil;
import io.strata.engine.error.FdbError;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A range read, run when iterated — each {@link #iterator()} or {@link #asList()} reads
 * afresh, as fdb-java's {@code RangeQuery} and {@code MappedRangeQuery} do (the two share one
 * protocol; only what a batch holds differs, which {@link Source} supplies).
 *
 * <p>The iterator follows {@code RangeQuery}'s protocol: it issues its first batch read when
 * it is created (so writes made after {@code iterator()} are not in that batch), and the
 * read of the following batch when the first row of a batch is taken. Each batch continues
 * after the last key of the previous one and adds its own read conflict range, so an
 * iteration abandoned early conflicts only on what it read, as on a real cluster.
 * {@code remove()} clears the last key returned.
 *
 * <p>How much a batch holds is the source's: plain ranges count rows (the streaming mode's
 * chunk, {@link #rowsToAsk}); mapped ranges follow FoundationDB's byte targets
 * ({@link MappedRangeRead}).
 *
 * <p>{@link #asList()} does what fdb-java's does: ITERATOR mode becomes WANT_ALL without a
 * limit and EXACT with one; EXACT reads once, any other mode collects the iterator.
 *
 * <p>Completion: each batch is the transaction's future ({@code readRange}), which under
 * {@link Completion#FDB_JAVA} completes on the executor as fdb-java's native batch does; the
 * iterator's {@code onHasNext} is then what {@code RangeQuery}'s is — the batch's promise,
 * completed when the batch does, while none is buffered; an already complete {@code true}
 * while rows are buffered and {@code false} after the last batch.
 *
 * <p>Limits are the native client's: 0 is unlimited, -1 is the native "unlimited" (which
 * EXACT refuses, and which stops fdb-java's iterator after its first batch), and anything
 * below -1 fails with {@code range_limits_invalid}.
 */
final class RangeIterable<T> implements AsyncIterable<T> {
    /** First chunk of ITERATOR mode; it doubles up to {@link #MAX_CHUNK} as iteration goes on. */
    static final int FIRST_ITERATOR_CHUNK = 256;
    /** Largest chunk: bounds the memory one read step holds. */
    static final int MAX_CHUNK = 10_000;
    /** The native client's ROW_LIMIT_UNLIMITED, reachable through fdb-java's int limits. */
    static final int NATIVE_UNLIMITED = -1;

    /** What one read returns: its rows, and whether the range may go on after the last. */
    interface Batch<T> {
        List<T> rows();

        boolean more();
    }

    /** Where the batches come from, and how a row is handed out. */
    interface Source<T> {
        /**
         * One batch, asked for as fdb-java asks its transaction: {@code limit} is what is left of
         * the caller's row limit (0 none, -1 the native "unlimited", below -1 invalid),
         * {@code iteration} counts the batches from 1.
         */
        CompletableFuture<? extends Batch<T>> read(KeySelector begin, KeySelector end, int limit, StreamingMode mode, int iteration,
                                                   boolean reverse);

        /** The row's key, where the next batch goes on from. */
        byte[] keyOf(T row);

        /** The row as the caller gets it: arrays of its own, as from fdb-java. The batch keeps the store's. */
        T ownCopy(T row);
    }

    private final Source<T> source;
    private final EngineTransaction tx;
    private final KeySelector begin;
    private final KeySelector end;
    private final int limit;
    private final boolean reverse;
    private final StreamingMode mode;
    /** The keeper's events of this read, or null when the transaction has no keeper. */
    private final RangeQueryEvents events;

    private RangeIterable(Source<T> source, EngineTransaction tx, KeySelector begin, KeySelector end, int limit, boolean reverse,
                          StreamingMode mode, RangeQueryEvents events) {
        this.source = source;
        this.tx = tx;
        this.begin = begin;
        this.end = end;
        this.limit = limit;
        this.reverse = reverse;
        this.mode = mode == null ? StreamingMode.ITERATOR : mode;
        this.events = events;
    }

    /** {@code getRange}: batches of the streaming mode's row chunk, from the transaction's read-your-writes view. */
    static RangeIterable<KeyValue> keyValues(EngineTransaction tx, KeySelector begin, KeySelector end, int limit, boolean reverse,
                                             StreamingMode mode, boolean snapshot, RangeQueryEvents events) {
        Source<KeyValue> source = new Source<>() {
            @Override
            public CompletableFuture<ReadView.Rows> read(KeySelector b, KeySelector e, int rowLimit, StreamingMode m, int iteration,
                                                         boolean rev) {
                return tx.readRange(b, e, rowsToAsk(rowLimit, m, iteration), rev, snapshot);
            }

            @Override
            public byte[] keyOf(KeyValue row) {
                return row.getKey();
            }

            @Override
            public KeyValue ownCopy(KeyValue kv) {
                return new KeyValue(kv.getKey().clone(), kv.getValue().clone());
            }
        };
        return new RangeIterable<>(source, tx, begin, end, limit, reverse, mode, events);
    }

    /**
     * {@code getMappedRange}: batches as FoundationDB sizes them ({@link MappedRangeRead}).
     * {@code mapper} is the caller's array, read at each batch as fdb-java's JNI call reads it.
     */
    static RangeIterable<MappedKeyValue> mapped(EngineTransaction tx, KeySelector begin, KeySelector end, byte[] mapper, int limit,
                                                boolean reverse, StreamingMode mode, RangeQueryEvents events) {
        Source<MappedKeyValue> source = new Source<>() {
            @Override
            public CompletableFuture<MappedRangeRead.Result> read(KeySelector b, KeySelector e, int rowLimit, StreamingMode m,
                                                                  int iteration, boolean rev) {
                return tx.readMappedRange(b, e, mapper, rowLimit, m, iteration, rev);
            }

            @Override
            public byte[] keyOf(MappedKeyValue row) {
                return row.getKey();
            }

            @Override
            public MappedKeyValue ownCopy(MappedKeyValue m) {
                List<KeyValue> found = m.getRangeResult();
                List<KeyValue> copies = new ArrayList<>(found.size());
                for (KeyValue kv : found) {
                    copies.add(new KeyValue(kv.getKey().clone(), kv.getValue().clone()));
                }
                return new MappedKeyValue(m.getKey().clone(), m.getValue().clone(), m.getRangeBegin().clone(),
                        m.getRangeEnd().clone(), copies);
            }
        };
        return new RangeIterable<>(source, tx, begin, end, limit, reverse, mode, events);
    }

    /**
     * The rows a plain range batch asks for: the streaming mode's chunk for this iteration,
     * capped by what the limit leaves (none for 0 and -1); a limit below -1 goes through as is,
     * for the transaction to refuse.
     */
    static int rowsToAsk(int limit, StreamingMode mode, int iteration) {
        if (limit < NATIVE_UNLIMITED) {
            return limit;
        }
        int chunk = chunk(mode, iteration);
        int cap = limit > 0 ? limit : 0;
        int want = chunk == 0 ? cap : (cap == 0 ? chunk : Math.min(chunk, cap));
        if (want == 0 && limit == NATIVE_UNLIMITED) {
            want = NATIVE_UNLIMITED;
        }
        return want;
    }

    /** The streaming mode's first chunk, doubled for each later batch up to {@link #MAX_CHUNK}; 0 for one unlimited batch. */
    private static int chunk(StreamingMode m, int iteration) {
        int first = firstChunk(m);
        if (first == 0) {
            return 0;
        }
        long c = first;
        for (int i = 1; i < iteration && c < MAX_CHUNK; i++) {
            c *= 2;
        }
        return (int) Math.min(c, MAX_CHUNK);
    }

    /** One read as the native client takes it: EXACT needs a row limit, then the transaction validates the rest. */
    private CompletableFuture<? extends Batch<T>> read(KeySelector b, KeySelector e, int rows, StreamingMode m, int iteration) {
        if (m == StreamingMode.EXACT && (rows == 0 || rows == NATIVE_UNLIMITED)) {
            // The native client's error: its future fails as every batch's does (Completion).
            return tx.handOut(CompletableFuture.failedFuture(FdbError.EXACT_MODE_WITHOUT_LIMITS.exception()));
        }
        return source.read(b, e, rows, m, iteration, reverse);
    }

    @Override
    public CompletableFuture<List<T>> asList() {
        StreamingMode m = mode;
        if (m == StreamingMode.ITERATOR) {
            m = limit == 0 ? StreamingMode.WANT_ALL : StreamingMode.EXACT;
        }
        if (m == StreamingMode.EXACT) {
            if (events == null) {
                return read(begin, end, limit, m, 1).thenApply(batch -> ownCopies(batch.rows()));
            }
            events.beforeRead();
            return read(begin, end, limit, m, 1)
                    .whenComplete((batch, error) -> events.readCompleted(error))
                    .thenApply(batch -> ownCopies(batch.rows()));
        }
        if (tx.db.completion() == Completion.FDB_JAVA) {
            // fdb-java's own collection (RangeQuery.asList): it goes on from the first
            // onHasNext on the executor (thenComposeAsync), so its future is never complete
            // when asList returns. The overload with an executor never touches FDB's
            // DEFAULT_EXECUTOR, so it loads no native library on the real fdb-java.
            return AsyncUtil.collectRemaining(new ChunkIterator(m), tx.getExecutor());
        }
        CompletableFuture<List<T>> result = new CompletableFuture<>();
        collect(new ChunkIterator(m), new ArrayList<>(), result);
        return result;
    }

    private List<T> ownCopies(List<T> rows) {
        List<T> out = new ArrayList<>(rows.size());
        for (T row : rows) {
            out.add(source.ownCopy(row));
        }
        return out;
    }

    /**
     * Drains {@code it} into {@code out} without blocking a thread. A batch that is the range's
     * last is taken whole ({@link ChunkIterator#takeLastBatch}): the same rows, copies and
     * events as taking them one by one, without a lock and a future per row (in a profile of
     * 100-row scans over the disk engine they took about 5% of the CPU).
     */
    private void collect(ChunkIterator it, List<T> out, CompletableFuture<List<T>> result) {
        while (true) {
            if (it.takeLastBatch(out)) {
                continue; // onHasNext now answers false
            }
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
    public AsyncIterator<T> iterator() {
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
    private final class ChunkIterator implements AsyncIterator<T> {
        private final StreamingMode batchMode;
        private final boolean rowsLimited = limit != 0;
        private KeySelector nextBegin = begin;
        private KeySelector nextEnd = end;
        private int rowsRemaining = limit;
        /** Batches asked for so far: fdb-java's {@code iteration}, which ITERATOR mode sizes batches by. */
        private int iteration;
        private Batch<T> current;
        private Batch<T> following;
        private int index;
        private CompletableFuture<Boolean> nextFuture;
        private byte[] prevKey;
        private boolean cancelled;
        /** The batch outstanding, for the keeper's events; null without a keeper. */
        private RangeQueryEvents.Fetch fetch;

        ChunkIterator(StreamingMode batchMode) {
            this.batchMode = batchMode;
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
            CompletableFuture<Boolean> promise = new CompletableFuture<>();
            nextFuture = promise;
            // fdb-java passes what is left of the limit (0 when there is none) and the iteration.
            // May complete at once, running fetched() here under this (reentrant) lock.
            if (events == null) {
                read(nextBegin, nextEnd, rowsLimited ? rowsRemaining : 0, batchMode, ++iteration)
                        .whenComplete((rows, error) -> fetched(promise, rows, error));
                return;
            }
            events.beforeRead();
            CompletableFuture<? extends Batch<T>> batch = read(nextBegin, nextEnd, rowsLimited ? rowsRemaining : 0, batchMode, ++iteration);
            RangeQueryEvents.Fetch f = events.fetchIssued();
            fetch = f;
            batch.whenComplete((rows, error) -> {
                events.fetchCompleted(f, error);
                fetched(promise, rows, error);
            });
        }

        private void fetched(CompletableFuture<Boolean> promise, Batch<T> batch, Throwable error) {
            if (error != null) {
                promise.completeExceptionally(EngineTransaction.unwrap(error));
                return;
            }
            if (batch.rows().isEmpty()) {
                promise.complete(false);
                return;
            }
            synchronized (this) {
                List<T> r = batch.rows();
                if (rowsLimited) {
                    rowsRemaining -= r.size();
                }
                byte[] last = source.keyOf(r.get(r.size() - 1));
                if (reverse) {
                    nextEnd = KeySelector.firstGreaterOrEqual(last);
                } else {
                    nextBegin = KeySelector.firstGreaterThan(last);
                }
                if (current == null || index == current.rows().size()) {
                    current = batch;
                    following = null;
                    index = 0;
                } else {
                    following = batch;
                }
            }
            promise.complete(true);
        }

        /**
         * When the batch being consumed is untouched and is the range's last (nothing follows
         * it, and no further batch will be read), adds all its rows to {@code out} as
         * {@link #next} would hand them out one by one, and returns true; else false.
         */
        synchronized boolean takeLastBatch(List<T> out) {
            if (cancelled || current == null || index != 0 || following != null || !currentIsLast()) {
                return false;
            }
            List<T> rows = current.rows();
            for (T row : rows) {
                if (events != null) {
                    events.rowReturned((KeyValue) row);
                }
                out.add(source.ownCopy(row));
            }
            prevKey = source.keyOf(rows.get(rows.size() - 1));
            index = rows.size();
            return true;
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
        public T next() {
            CompletableFuture<Boolean> has;
            synchronized (this) {
                if (cancelled) {
                    throw new CancellationException();
                }
                if (current != null && index < current.rows().size()) {
                    boolean firstOfBatch = index == 0;
                    T row = current.rows().get(index++);
                    prevKey = source.keyOf(row);
                    if (events != null) {
                        // Plain and mapped rows alike: a MappedKeyValue is a KeyValue.
                        events.rowReturned((KeyValue) row);
                    }
                    if (index == current.rows().size() && following != null) {
                        current = following;
                        following = null;
                        index = 0;
                    }
                    if (firstOfBatch) {
                        startFetch();
                    }
                    return source.ownCopy(row);
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
            if (events != null) {
                events.clearIssued();
            }
            tx.clear(key);
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
            if (nextFuture != null) {
                nextFuture.cancel(true);
            }
            if (fetch != null) {
                // fdb-java's cancel fails the outstanding batch (a no-op once it completed).
                events.fetchCancelled(fetch);
            }
        }
    }
}
