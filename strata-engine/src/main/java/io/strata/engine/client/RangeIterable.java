package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.engine.error.FdbError;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;

/**
 * A range read, run when iterated — each {@link #iterator()} or {@link #asList()} reads
 * afresh, as fdb-java's {@code RangeQuery} does.
 *
 * <p>{@link #asList()} reads the whole range (up to the limit) at once. The iterator reads
 * in chunks whose size follows the streaming mode, each chunk continuing after the last key
 * of the previous one, and each adding its own read conflict range — so an iteration
 * abandoned early conflicts only on what it read, as on a real cluster.
 */
final class RangeIterable implements AsyncIterable<KeyValue> {
    /** First chunk of ITERATOR mode; it doubles up to {@link #MAX_CHUNK} as iteration goes on. */
    static final int FIRST_ITERATOR_CHUNK = 256;
    /** Largest chunk: bounds the memory one read step holds. */
    static final int MAX_CHUNK = 10_000;

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

    private FdbErrorCheck check() {
        if (mode == StreamingMode.EXACT && limit == 0) {
            return new FdbErrorCheck(FdbError.EXACT_MODE_WITHOUT_LIMITS);
        }
        return null;
    }

    private record FdbErrorCheck(FdbError error) {}

    @Override
    public CompletableFuture<List<KeyValue>> asList() {
        FdbErrorCheck bad = check();
        if (bad != null) {
            return CompletableFuture.failedFuture(bad.error().exception());
        }
        return tx.readRange(begin, end, limit, reverse, snapshot).thenApply(ReadView.Rows::rows);
    }

    @Override
    public AsyncIterator<KeyValue> iterator() {
        return new ChunkIterator();
    }

    private int firstChunk() {
        return switch (mode) {
            case WANT_ALL, EXACT -> 0;
            case SMALL -> 256;
            case MEDIUM -> 1_000;
            case LARGE, SERIAL -> 4_000;
            default -> FIRST_ITERATOR_CHUNK;
        };
    }

    /** Reads chunk after chunk, each continuing from the last key returned. */
    private final class ChunkIterator implements AsyncIterator<KeyValue> {
        private KeySelector nextBegin = begin;
        private KeySelector nextEnd = end;
        private int remaining = limit;
        private int chunk = firstChunk();
        private List<KeyValue> rows = List.of();
        private int index;
        private boolean exhausted;
        private boolean cancelled;
        private CompletableFuture<Boolean> fetching;

        @Override
        public synchronized CompletableFuture<Boolean> onHasNext() {
            if (index < rows.size()) {
                return CompletableFuture.completedFuture(true);
            }
            if (exhausted || cancelled) {
                return CompletableFuture.completedFuture(false);
            }
            if (fetching != null) {
                return fetching;
            }
            FdbErrorCheck bad = check();
            if (bad != null) {
                return CompletableFuture.failedFuture(bad.error().exception());
            }
            int want = chunk == 0 ? remaining : (remaining == 0 ? chunk : Math.min(chunk, remaining));
            CompletableFuture<Boolean> f = tx.readRange(nextBegin, nextEnd, want, reverse, snapshot).thenApply(this::accept);
            // A read that completed at once has already run accept (under this lock, which is
            // reentrant): remembering its future would hand the stale "true" to the next caller.
            fetching = f.isDone() ? null : f;
            return f;
        }

        private synchronized boolean accept(ReadView.Rows result) {
            fetching = null;
            rows = result.rows();
            index = 0;
            if (!rows.isEmpty()) {
                byte[] last = rows.get(rows.size() - 1).getKey();
                if (reverse) {
                    nextEnd = KeySelector.firstGreaterOrEqual(last);
                } else {
                    nextBegin = KeySelector.firstGreaterThan(last);
                }
            }
            if (limit > 0) {
                remaining -= rows.size();
            }
            exhausted = !result.more() || (limit > 0 && remaining <= 0);
            if (chunk > 0) {
                chunk = Math.min(chunk * 2, MAX_CHUNK);
            }
            return !rows.isEmpty();
        }

        @Override
        public boolean hasNext() {
            return onHasNext().join();
        }

        @Override
        public KeyValue next() {
            // Wait outside the lock: the chunk may complete on another thread, which needs it.
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            synchronized (this) {
                return rows.get(index++);
            }
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
        }
    }
}
