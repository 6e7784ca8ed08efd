package io.strata.engine.client;

import com.apple.foundationdb.KeyArrayResult;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.async.AsyncIterable;

import java.util.concurrent.CompletableFuture;

/**
 * The many {@code getRange} overloads of {@link ReadTransaction}, reduced to one: byte-array
 * ends become {@code firstGreaterOrEqual} selectors, the default limit is unlimited, the
 * default order forward, the default mode {@link StreamingMode#ITERATOR} — as in fdb-java.
 */
abstract class ReadOverloads implements ReadTransaction {

    abstract AsyncIterable<KeyValue> range(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode);

    @Override
    public AsyncIterable<KeyValue> getRange(KeySelector begin, KeySelector end) {
        return range(begin, end, ROW_LIMIT_UNLIMITED, false, StreamingMode.ITERATOR);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(KeySelector begin, KeySelector end, int limit) {
        return range(begin, end, limit, false, StreamingMode.ITERATOR);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(KeySelector begin, KeySelector end, int limit, boolean reverse) {
        return range(begin, end, limit, reverse, StreamingMode.ITERATOR);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode) {
        return range(begin, end, limit, reverse, mode);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(byte[] begin, byte[] end) {
        return getRange(KeySelector.firstGreaterOrEqual(begin), KeySelector.firstGreaterOrEqual(end));
    }

    @Override
    public AsyncIterable<KeyValue> getRange(byte[] begin, byte[] end, int limit) {
        return getRange(KeySelector.firstGreaterOrEqual(begin), KeySelector.firstGreaterOrEqual(end), limit);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
        return getRange(KeySelector.firstGreaterOrEqual(begin), KeySelector.firstGreaterOrEqual(end), limit, reverse);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse, StreamingMode mode) {
        return getRange(KeySelector.firstGreaterOrEqual(begin), KeySelector.firstGreaterOrEqual(end), limit, reverse, mode);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(Range range) {
        return getRange(range.begin, range.end);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(Range range, int limit) {
        return getRange(range.begin, range.end, limit);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(Range range, int limit, boolean reverse) {
        return getRange(range.begin, range.end, limit, reverse);
    }

    @Override
    public AsyncIterable<KeyValue> getRange(Range range, int limit, boolean reverse, StreamingMode mode) {
        return getRange(range.begin, range.end, limit, reverse, mode);
    }

    @Override
    public CompletableFuture<Long> getEstimatedRangeSizeBytes(Range range) {
        return getEstimatedRangeSizeBytes(range.begin, range.end);
    }

    @Override
    public CompletableFuture<KeyArrayResult> getRangeSplitPoints(Range range, long chunkSize) {
        return getRangeSplitPoints(range.begin, range.end, chunkSize);
    }
}
