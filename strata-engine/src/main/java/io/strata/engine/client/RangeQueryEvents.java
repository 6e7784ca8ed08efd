package io.strata.engine.client;

import com.apple.foundationdb.EventKeeper;
import com.apple.foundationdb.EventKeeper.Events;
import com.apple.foundationdb.KeyValue;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link EventKeeper} events of a range read, counted where fdb-java 7.3.68 counts them
 * ({@code RangeQuery}, {@code FDBTransaction.getRange_internal}, {@code FutureResults}):
 *
 * <ul>
 *   <li>each batch read is one native call ({@code JNI_CALL}); iterator batches are also one
 *       {@code RANGE_QUERY_FETCHES} each, counted once the call returned;</li>
 *   <li>when a batch completes, reading its outcome is one more native call
 *       ({@code FutureResults.getIfDone_internal}); a batch that succeeded is then fetched
 *       across the boundary, one more call and one {@code RANGE_QUERY_DIRECT_BUFFER_MISS}
 *       ({@code FutureResults.getResults}; fdb-java's direct buffers are off unless
 *       {@code FDB.enableDirectBufferQuery(true)}, and there is no buffer here to hit); a batch
 *       that failed is one {@code RANGE_QUERY_CHUNK_FAILED}; either way, for iterator batches,
 *       one {@code RANGE_QUERY_FETCH_TIME_NANOS} with the batch's time;</li>
 *   <li>each row an iterator hands out is one {@code RANGE_QUERY_RECORDS_FETCHED} and
 *       {@code key + value + 8} {@code BYTES_FETCHED};</li>
 *   <li>cancelling an iterator while a batch is outstanding fails that batch: one
 *       {@code RANGE_QUERY_CHUNK_FAILED} and its time, and nothing when it completes later
 *       (fdb-java's cancel completes the batch future, whose close then drops the native one);</li>
 *   <li>{@code asList()} in EXACT mode reads once without the iterator: its native calls only,
 *       no fetch, row or byte events.</li>
 * </ul>
 *
 * <p>fdb-java counts a batch's completion events after completing the future the iterator
 * waits on; they are counted here before it, so a caller that has seen the rows sees the counts.
 *
 * <p>Only made when the transaction has a keeper: a range read without one counts nothing and
 * pays for nothing but a null check.
 *
 * <p>Concurrency: the keeper must be thread-safe (fdb-java calls it from user and executor
 * threads alike); a {@link Fetch} is settled exactly once, by its completion or by a cancel.
 */
final class RangeQueryEvents {
    private final EventKeeper keeper;

    RangeQueryEvents(EventKeeper keeper) {
        this.keeper = keeper;
    }

    /** One batch of an iterator, from its native call to its completion or cancellation. */
    static final class Fetch {
        private final long startNanos = System.nanoTime();
        private final AtomicBoolean settled = new AtomicBoolean();
    }

    /** Before a batch read is issued: the native call, counted even if the call then throws. */
    void beforeRead() {
        keeper.increment(Events.JNI_CALL);
    }

    /** After an iterator's batch read was issued. */
    Fetch fetchIssued() {
        keeper.increment(Events.RANGE_QUERY_FETCHES);
        return new Fetch();
    }

    /** An iterator's batch completed with {@code error} (null on success), unless it was cancelled first. */
    void fetchCompleted(Fetch fetch, Throwable error) {
        if (!fetch.settled.compareAndSet(false, true)) {
            return;
        }
        readCompleted(error);
        if (error != null) {
            keeper.increment(Events.RANGE_QUERY_CHUNK_FAILED);
        }
        keeper.timeNanos(Events.RANGE_QUERY_FETCH_TIME_NANOS, System.nanoTime() - fetch.startNanos);
    }

    /** The iterator was cancelled while {@code fetch} was outstanding. */
    void fetchCancelled(Fetch fetch) {
        if (!fetch.settled.compareAndSet(false, true)) {
            return;
        }
        keeper.increment(Events.RANGE_QUERY_CHUNK_FAILED);
        keeper.timeNanos(Events.RANGE_QUERY_FETCH_TIME_NANOS, System.nanoTime() - fetch.startNanos);
    }

    /** Any batch read completed: its outcome read back, and on success its rows fetched. */
    void readCompleted(Throwable error) {
        keeper.increment(Events.JNI_CALL);
        if (error == null) {
            keeper.increment(Events.JNI_CALL);
            keeper.increment(Events.RANGE_QUERY_DIRECT_BUFFER_MISS);
        }
    }

    /** An iterator handed out {@code row}. */
    void rowReturned(KeyValue row) {
        keeper.count(Events.BYTES_FETCHED, row.getKey().length + row.getValue().length + 8L);
        keeper.increment(Events.RANGE_QUERY_RECORDS_FETCHED);
    }

    /** {@code remove()} clears the last key through the transaction: one native call. */
    void clearIssued() {
        keeper.increment(Events.JNI_CALL);
    }
}
