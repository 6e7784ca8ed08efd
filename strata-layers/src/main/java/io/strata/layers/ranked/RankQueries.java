package io.strata.layers.ranked;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The descents from the top level to level 0 that answer {@code rankOf} and {@code getNth}, and
 * the top-level sum that answers {@code size}. All of them read the levels as snapshot reads;
 * the caller adds the read conflict range on level 0 that the answer depends on.
 *
 * <p>At each level the walk starts at the anchor chosen one level up (a tower at least that
 * tall, or the head) and stops before the next tower one level taller, so it reads about
 * {@code 2^fanoutBits} keys per level; the top level is read from its head.
 */
final class RankQueries {
    private final RankedSetLayout layout;
    private final int firstBatch;

    RankQueries(RankedSetLayout layout, int fanoutBits) {
        this.layout = layout;
        this.firstBatch = 2 << fanoutBits;
    }

    /** The number of elements below {@code key}. */
    CompletableFuture<Long> rankOf(ReadTransaction snapshot, byte[] key) {
        return rankOf(snapshot, key, layout.levels - 1, RankedSetLayout.EMPTY, 0);
    }

    private CompletableFuture<Long> rankOf(ReadTransaction snapshot, byte[] key, int level, byte[] anchor, long counted) {
        // Every key from the anchor up to the key: each but the last counts wholly below the key.
        CompletableFuture<List<KeyValue>> read = snapshot.getRange(layout.key(level, anchor), layout.key(level, key),
                ReadTransaction.ROW_LIMIT_UNLIMITED, false, StreamingMode.WANT_ALL).asList();
        if (level == 0) {
            return read.thenApply(kvs -> counted + kvs.size());
        }
        return read.thenCompose(kvs -> {
            if (kvs.isEmpty()) {
                return rankOf(snapshot, key, level - 1, anchor, counted); // only an absent head precedes the key
            }
            long sum = counted;
            for (int i = 0; i < kvs.size() - 1; i++) {
                sum += RankedSetLayout.decodeCount(kvs.get(i).getValue());
            }
            byte[] last = layout.element(level, kvs.get(kvs.size() - 1).getKey());
            return rankOf(snapshot, key, level - 1, last, sum);
        });
    }

    /** The element of rank {@code rank} (0-based), empty if the set is not that large. */
    CompletableFuture<Optional<byte[]>> getNth(ReadTransaction snapshot, long rank) {
        return descend(snapshot, layout.levels - 1, RankedSetLayout.EMPTY, layout.levelBegin(layout.levels - 1), rank,
                firstBatch);
    }

    /** Walks {@code level} from {@code from} to the key whose count holds rank {@code remaining} of the walk, then goes down. */
    private CompletableFuture<Optional<byte[]>> descend(ReadTransaction snapshot, int level, byte[] anchor, byte[] from,
                                                        long remaining, int batch) {
        if (level == 0) {
            int index = Math.toIntExact(remaining);
            return snapshot.getRange(layout.key(0, anchor), layout.levelEnd(0), index + 1).asList().thenApply(kvs -> {
                if (kvs.size() <= index) {
                    throw corrupt(0, anchor);
                }
                return Optional.of(layout.element(0, kvs.get(index).getKey()));
            });
        }
        return snapshot.getRange(from, layout.levelEnd(level), batch).asList().thenCompose(kvs -> {
            long left = remaining;
            for (KeyValue kv : kvs) {
                long count = RankedSetLayout.decodeCount(kv.getValue());
                if (left < count) {
                    // The walk below stays within this key's span, so never needs more rows than it counts.
                    byte[] next = layout.element(level, kv.getKey());
                    int rows = (int) Math.min(firstBatch, count);
                    return descend(snapshot, level - 1, next, layout.key(level - 1, next), left, rows);
                }
                left -= count;
            }
            if (kvs.size() == batch) {
                byte[] after = layout.keyAfter(level, layout.element(level, kvs.get(kvs.size() - 1).getKey()));
                return descend(snapshot, level, anchor, after, left, Math.min(batch * 2, 10_000));
            }
            if (level == layout.levels - 1) {
                return CompletableFuture.completedFuture(Optional.empty()); // rank >= size
            }
            throw corrupt(level, anchor);
        });
    }

    /** The number of elements: the sum of the top level's counts. */
    CompletableFuture<Long> size(ReadTransaction snapshot) {
        int top = layout.levels - 1;
        return snapshot.getRange(layout.levelBegin(top), layout.levelEnd(top), ReadTransaction.ROW_LIMIT_UNLIMITED, false,
                StreamingMode.WANT_ALL).asList().thenApply(kvs -> {
                    long sum = 0;
                    for (KeyValue kv : kvs) {
                        sum += RankedSetLayout.decodeCount(kv.getValue());
                    }
                    return sum;
                });
    }

    private static IllegalStateException corrupt(int level, byte[] anchor) {
        return new IllegalStateException("ranked set corrupt: counts above level " + level + " exceed the elements after "
                + com.apple.foundationdb.tuple.ByteArrayUtil.printable(anchor));
    }
}
