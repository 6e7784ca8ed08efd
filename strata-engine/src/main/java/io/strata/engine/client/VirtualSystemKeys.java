package io.strata.engine.client;

import io.strata.engine.cluster.ShardMap;
import io.strata.engine.store.StoreRange;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.util.ByteKeys;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The stored data as a transaction that may read system keys sees it: the store, except that
 * {@code \xff/keyServers/} holds the engine's shard map ({@link ShardMap}) instead of whatever
 * the store has there. FoundationDB keeps that range as real keys written by its data
 * distributor; the engine computes it, and refuses writes to it (KeyRules), so the store holds
 * nothing there that could be hidden.
 *
 * <p>Everything above this layer — read-your-writes, key selectors, conflict ranges, limits —
 * treats the rows as stored rows, so reads of {@code \xff/keyServers/} behave as FoundationDB's
 * reads of real system keys.
 */
final class VirtualSystemKeys {
    private VirtualSystemKeys() {
    }

    /** The value of {@code key} at {@code version}. */
    static byte[] get(VersionedStore store, ShardMap shards, long version, byte[] key) {
        if (!ShardMap.isKeyServersKey(key)) {
            return store.get(key, version);
        }
        List<Map.Entry<byte[], byte[]>> rows = shards.keyServersRows(version);
        int i = Collections.binarySearch(rows, Map.entry(key, ByteKeys.EMPTY), (a, b) -> ByteKeys.compare(a.getKey(), b.getKey()));
        return i >= 0 ? rows.get(i).getValue() : null;
    }

    /** The present rows of {@code [lo, hi)} at {@code version}, ascending or descending. */
    static StoreRange range(VersionedStore store, ShardMap shards, long version, byte[] lo, byte[] hi, boolean reverse) {
        if (!ShardMap.meetsKeyServers(lo, hi)) {
            return store.range(lo, hi, version, reverse);
        }
        byte[] innerLo = ByteKeys.max(lo, ShardMap.KEY_SERVERS_BEGIN);
        byte[] innerHi = ByteKeys.min(hi, ShardMap.KEY_SERVERS_END);
        StoreRange below = store.range(lo, innerLo, version, reverse);
        StoreRange above = store.range(innerHi, hi, version, reverse);
        List<Map.Entry<byte[], byte[]>> inside = shards.keyServersRows(version).stream()
                .filter(e -> ByteKeys.compare(e.getKey(), innerLo) >= 0 && ByteKeys.compare(e.getKey(), innerHi) < 0)
                .toList();
        Iterator<Map.Entry<byte[], byte[]>> virtual;
        if (reverse) {
            List<Map.Entry<byte[], byte[]>> copy = new java.util.ArrayList<>(inside);
            Collections.reverse(copy);
            virtual = copy.iterator();
            return concat(above, StoreRange.of(virtual), below);
        }
        virtual = inside.iterator();
        return concat(below, StoreRange.of(virtual), above);
    }

    private static StoreRange concat(StoreRange... parts) {
        return new StoreRange() {
            private int part;

            @Override
            public boolean hasNext() {
                while (part < parts.length && !parts[part].hasNext()) {
                    part++;
                }
                return part < parts.length;
            }

            @Override
            public Map.Entry<byte[], byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return parts[part].next();
            }

            @Override
            public void close() {
                for (StoreRange p : parts) {
                    p.close();
                }
            }
        };
    }
}
