package io.strata.engine.store;

import java.util.Iterator;
import java.util.Map;

/**
 * Present keys of a range at a read version, from {@link VersionedStore#range}. Over a disk
 * store it holds a disk cursor and keeps the window's versions it may need from being
 * dropped, so it must be closed (try-with-resources); closing twice is harmless.
 */
public interface StoreRange extends Iterator<Map.Entry<byte[], byte[]>>, AutoCloseable {
    @Override
    void close();

    /** A range over an iterator that holds nothing. */
    static StoreRange of(Iterator<Map.Entry<byte[], byte[]>> it) {
        return new StoreRange() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Map.Entry<byte[], byte[]> next() {
                return it.next();
            }

            @Override
            public void close() {
            }
        };
    }
}
