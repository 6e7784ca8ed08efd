package io.strata.bench.stores;

import io.strata.engine.store.DiskStore;

import java.util.Map;
import java.util.NoSuchElementException;

/** A {@link DiskStore.Cursor} over a store's own walk: {@link #advance} gives each entry in turn, null at the end. */
abstract class PeekingCursor implements DiskStore.Cursor {
    private Map.Entry<byte[], byte[]> next;
    private boolean done;

    /** The next entry of the walk, copied out of the store; null once the walk has ended (it is not called again). */
    protected abstract Map.Entry<byte[], byte[]> advance();

    @Override
    public final boolean hasNext() {
        if (next == null && !done) {
            next = advance();
            done = next == null;
        }
        return next != null;
    }

    @Override
    public final Map.Entry<byte[], byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Map.Entry<byte[], byte[]> e = next;
        next = null;
        return e;
    }
}
