package io.strata.layers.ranked;

import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * An iterable whose source is known only after a read (a scan that starts at a rank must first
 * find the element of that rank). Each iteration starts its own lookup, as each iteration of a
 * range read starts its own read.
 */
final class DeferredIterable<T> implements AsyncIterable<T> {
    private final Supplier<CompletableFuture<AsyncIterable<T>>> source;

    DeferredIterable(Supplier<CompletableFuture<AsyncIterable<T>>> source) {
        this.source = source;
    }

    @Override
    public AsyncIterator<T> iterator() {
        return new DeferredIterator<>(source.get().thenApply(AsyncIterable::iterator));
    }

    @Override
    public CompletableFuture<List<T>> asList() {
        return source.get().thenCompose(AsyncIterable::asList);
    }

    private static final class DeferredIterator<T> implements AsyncIterator<T> {
        private final CompletableFuture<AsyncIterator<T>> inner;

        DeferredIterator(CompletableFuture<AsyncIterator<T>> inner) {
            this.inner = inner;
        }

        @Override
        public CompletableFuture<Boolean> onHasNext() {
            return inner.thenCompose(AsyncIterator::onHasNext);
        }

        @Override
        public boolean hasNext() {
            return onHasNext().join();
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return inner.join().next();
        }

        @Override
        public void cancel() {
            if (!inner.cancel(false) && !inner.isCompletedExceptionally()) {
                inner.join().cancel();
            }
        }
    }
}
