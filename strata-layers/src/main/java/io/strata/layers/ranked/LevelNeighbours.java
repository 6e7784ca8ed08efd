package io.strata.layers.ranked;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The two snapshot reads a change makes at one level, and the read conflict ranges that make
 * them serializable without conflicting on the counts that concurrent changes ADD to (the
 * argument is in {@link RankedSet}'s class notes).
 */
final class LevelNeighbours {
    /** Rows per read when walking a level; doubled per batch. Twice the expected distance between towers. */
    private final int firstBatch;
    private final RankedSetLayout layout;
    private final TowerHeights heights;

    LevelNeighbours(RankedSetLayout layout, TowerHeights heights, int fanoutBits) {
        this.layout = layout;
        this.heights = heights;
        this.firstBatch = 2 << fanoutBits;
    }

    /** The greatest key of {@code level} (1 or more) below {@code element}'s: the element whose count covers it. */
    record Predecessor(int level, byte[] element) {
    }

    /**
     * The keys of {@code level} (the level below the one a tower is built on) strictly between
     * an element and the next tower at least one level taller: their total count, and that
     * tower ({@code null} if the walk reached the level's end).
     */
    record Span(int level, long count, byte[] tower) {
    }

    /** A snapshot reverse read of limit 1: the head (the empty element) if no key of {@code level} is below {@code element}'s. */
    CompletableFuture<Predecessor> predecessor(ReadTransaction snapshot, int level, byte[] element) {
        return snapshot.getRange(layout.levelBegin(level), layout.key(level, element), 1, true).asList()
                .thenApply(kvs -> new Predecessor(level,
                        kvs.isEmpty() ? RankedSetLayout.EMPTY : layout.element(level, kvs.get(0).getKey())));
    }

    /**
     * Makes the predecessor read serializable for what it is used for: no key of its level may
     * appear or change between the predecessor and {@code element}, the element's own key
     * included (for a tower being removed, that is the count it merges), and the predecessor
     * must stay in the set. Its own key is left out, because concurrent changes ADD to it; its
     * level-0 key stands for it (the head is never removed and needs none).
     */
    void conflictOn(Transaction tr, Predecessor p, byte[] element) {
        tr.addReadConflictRange(layout.keyAfter(p.level(), p.element()), layout.keyAfter(p.level(), element));
        if (p.element().length > 0) {
            tr.addReadConflictKey(layout.key(0, p.element()));
        }
    }

    /** A snapshot walk of {@code level} from just after {@code element} to the next tower of {@code stopHeight} or more. */
    CompletableFuture<Span> span(ReadTransaction snapshot, int level, byte[] element, int stopHeight) {
        return walk(snapshot, level, layout.keyAfter(level, element), stopHeight, 0, firstBatch);
    }

    private CompletableFuture<Span> walk(ReadTransaction snapshot, int level, byte[] from, int stopHeight, long counted,
                                         int batch) {
        byte[] end = layout.levelEnd(level);
        return snapshot.getRange(from, end, batch).asList().thenCompose(kvs -> {
            long count = counted;
            for (KeyValue kv : kvs) {
                byte[] e = layout.element(level, kv.getKey());
                if (heights.of(e) >= stopHeight) {
                    return CompletableFuture.completedFuture(new Span(level, count, e));
                }
                count += level == 0 ? 1 : RankedSetLayout.decodeCount(kv.getValue());
            }
            if (kvs.size() < batch) {
                return CompletableFuture.completedFuture(new Span(level, count, null));
            }
            byte[] next = layout.keyAfter(level, layout.element(level, last(kvs).getKey()));
            return walk(snapshot, level, next, stopHeight, count, Math.min(batch * 2, 10_000));
        });
    }

    /**
     * The span's count holds only if no key in it is written and its closing tower stays (a
     * removal would merge the tower's count into the span). As for a predecessor, the tower's
     * own key is left out, because changes after it ADD to it, and its level-0 key stands for it.
     */
    void conflictOn(Transaction tr, Span s, byte[] element) {
        byte[] begin = layout.keyAfter(s.level(), element);
        if (s.tower() == null) {
            tr.addReadConflictRange(begin, layout.levelEnd(s.level()));
        } else {
            tr.addReadConflictRange(begin, layout.key(s.level(), s.tower()));
            tr.addReadConflictKey(layout.key(0, s.tower()));
        }
    }

    private static KeyValue last(List<KeyValue> kvs) {
        return kvs.get(kvs.size() - 1);
    }
}
