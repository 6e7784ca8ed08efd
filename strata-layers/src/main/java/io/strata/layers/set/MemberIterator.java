package io.strata.layers.set;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.async.AsyncIterator;
import org.roaringbitmap.PeekableCharIterator;

import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;

/**
 * The members of a set in unsigned order, decoded one container at a time from a range
 * read of the container keys: memory holds one container (at most 8 KiB) plus whatever the
 * range read buffers, never the whole set.
 *
 * <p>Follows {@link AsyncIterator}'s contract: {@link #hasNext()} and {@link #next()} block
 * on the range read when the current container is used up; {@link #onHasNext()} does not.
 * Not thread-safe, like fdb-java's range iterators.
 */
final class MemberIterator implements AsyncIterator<Long> {
    private final AsyncIterator<KeyValue> containers;
    private final int prefixLength;
    /** Members below this (unsigned) are skipped; only the first container can hold any. */
    private final long fromInclusive;
    private PeekableCharIterator lows;
    private long high;

    MemberIterator(AsyncIterator<KeyValue> containers, int prefixLength, long fromInclusive) {
        this.containers = containers;
        this.prefixLength = prefixLength;
        this.fromInclusive = fromInclusive;
    }

    @Override
    public CompletableFuture<Boolean> onHasNext() {
        if (lows != null && lows.hasNext()) {
            return CompletableFuture.completedFuture(true);
        }
        return containers.onHasNext().thenCompose(more -> {
            if (!more) {
                return CompletableFuture.completedFuture(false);
            }
            KeyValue kv = containers.next();
            high = RoaringSet.high48(kv.getKey(), prefixLength);
            lows = ContainerCodec.decode(kv.getValue()).getCharIterator();
            if (high == fromInclusive >>> 16) {
                lows.advanceIfNeeded((char) fromInclusive);
            }
            return onHasNext(); // a stored container is never empty, so this recurses at most once more
        });
    }

    @Override
    public boolean hasNext() {
        return onHasNext().join();
    }

    @Override
    public Long next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return high << 16 | lows.next();
    }

    @Override
    public void cancel() {
        containers.cancel();
    }
}
