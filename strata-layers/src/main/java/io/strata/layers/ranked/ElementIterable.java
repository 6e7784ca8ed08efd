package io.strata.layers.ranked;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A range read of level 0 seen as the elements it names. Not {@code AsyncUtil.mapIterable}:
 * its {@code asList} runs on fdb-java's default executor, which needs the native client; this
 * one maps the range read's own {@code asList}, and so runs wherever the transaction does.
 */
final class ElementIterable implements AsyncIterable<byte[]> {
    private static final AsyncIterable<byte[]> NONE = new AsyncIterable<>() {
        @Override
        public AsyncIterator<byte[]> iterator() {
            return new AsyncIterator<>() {
                @Override
                public CompletableFuture<Boolean> onHasNext() {
                    return CompletableFuture.completedFuture(false);
                }

                @Override
                public boolean hasNext() {
                    return false;
                }

                @Override
                public byte[] next() {
                    throw new java.util.NoSuchElementException();
                }

                @Override
                public void cancel() {
                }
            };
        }

        @Override
        public CompletableFuture<List<byte[]>> asList() {
            return CompletableFuture.completedFuture(List.of());
        }
    };

    private final AsyncIterable<KeyValue> range;
    private final RankedSetLayout layout;

    ElementIterable(AsyncIterable<KeyValue> range, RankedSetLayout layout) {
        this.range = range;
        this.layout = layout;
    }

    /** No elements, without reading. */
    static AsyncIterable<byte[]> none() {
        return NONE;
    }

    @Override
    public AsyncIterator<byte[]> iterator() {
        AsyncIterator<KeyValue> rows = range.iterator();
        return new AsyncIterator<>() {
            @Override
            public CompletableFuture<Boolean> onHasNext() {
                return rows.onHasNext();
            }

            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public byte[] next() {
                return layout.element(0, rows.next().getKey());
            }

            @Override
            public void cancel() {
                rows.cancel();
            }
        };
    }

    @Override
    public CompletableFuture<List<byte[]>> asList() {
        return range.asList().thenApply(kvs -> kvs.stream().map(kv -> layout.element(0, kv.getKey())).toList());
    }
}
