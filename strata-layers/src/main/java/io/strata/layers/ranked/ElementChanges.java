package io.strata.layers.ranked;

import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.layers.ranked.LevelNeighbours.Predecessor;
import io.strata.layers.ranked.LevelNeighbours.Span;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Adding and removing one element: every read is issued at once (the membership read
 * serializably, the rest as snapshot reads), and only once the element's membership is known
 * are the writes made and the read conflict ranges added, so a change that turns out to be a
 * no-op writes nothing and depends on nothing but the element's level-0 key.
 */
final class ElementChanges {
    private final RankedSetLayout layout;
    private final TowerHeights heights;
    private final LevelNeighbours neighbours;

    ElementChanges(RankedSetLayout layout, TowerHeights heights, LevelNeighbours neighbours) {
        this.layout = layout;
        this.heights = heights;
        this.neighbours = neighbours;
    }

    CompletableFuture<Boolean> add(Transaction tr, byte[] element) {
        CompletableFuture<byte[]> present = tr.get(layout.key(0, element));
        if (element.length == 0) {
            return present.thenApply(v -> v == null && changeHead(tr, element, 1));
        }
        int height = heights.of(element);
        ReadTransaction snapshot = tr.snapshot();
        List<CompletableFuture<Predecessor>> predecessors = predecessors(snapshot, element);
        List<CompletableFuture<Span>> spans = new ArrayList<>();
        for (int k = 1; k <= height; k++) {
            spans.add(neighbours.span(snapshot, k - 1, element, k));
        }
        return allOf(present, predecessors, spans).thenApply(ignore -> {
            if (present.join() != null) {
                return false;
            }
            tr.set(layout.key(0, element), RankedSetLayout.EMPTY);
            long count = 1; // of [element, next tower at least k tall), element included
            for (int k = 1; k < layout.levels; k++) {
                Predecessor p = predecessors.get(k - 1).join();
                neighbours.conflictOn(tr, p, element);
                if (k <= height) {
                    // Split p's count: element's tower starts a new one at this level.
                    Span span = spans.get(k - 1).join();
                    neighbours.conflictOn(tr, span, element);
                    count += span.count();
                    tr.set(layout.key(k, element), RankedSetLayout.encodeCount(count));
                    addTo(tr, k, p.element(), -(count - 1));
                } else {
                    addTo(tr, k, p.element(), 1);
                }
            }
            return true;
        });
    }

    CompletableFuture<Boolean> remove(Transaction tr, byte[] element) {
        CompletableFuture<byte[]> present = tr.get(layout.key(0, element));
        if (element.length == 0) {
            return present.thenApply(v -> v != null && changeHead(tr, element, -1));
        }
        int height = heights.of(element);
        ReadTransaction snapshot = tr.snapshot();
        List<CompletableFuture<Predecessor>> predecessors = predecessors(snapshot, element);
        List<CompletableFuture<byte[]>> counts = new ArrayList<>();
        for (int k = 1; k <= height; k++) {
            counts.add(snapshot.get(layout.key(k, element)));
        }
        return allOf(present, predecessors, counts).thenApply(ignore -> {
            if (present.join() == null) {
                return false;
            }
            tr.clear(layout.key(0, element));
            for (int k = 1; k < layout.levels; k++) {
                Predecessor p = predecessors.get(k - 1).join();
                neighbours.conflictOn(tr, p, element);
                if (k <= height) {
                    // Merge element's count into p's: its tower ends here.
                    byte[] key = layout.key(k, element);
                    byte[] value = counts.get(k - 1).join();
                    if (value == null) {
                        throw new IllegalStateException("ranked set corrupt: element present at level 0 but not at level " + k);
                    }
                    tr.clear(key); // value read: the predecessor's gap range includes this key, so it is the committed one
                    addTo(tr, k, p.element(), RankedSetLayout.decodeCount(value) - 1);
                } else {
                    addTo(tr, k, p.element(), -1);
                }
            }
            return true;
        });
    }

    /** The empty element is every level's head: its count covers it, and no structure changes. */
    private boolean changeHead(Transaction tr, byte[] head, int delta) {
        if (delta > 0) {
            tr.set(layout.key(0, head), RankedSetLayout.EMPTY);
        } else {
            tr.clear(layout.key(0, head));
        }
        for (int k = 1; k < layout.levels; k++) {
            addTo(tr, k, head, delta);
        }
        return true;
    }

    private List<CompletableFuture<Predecessor>> predecessors(ReadTransaction snapshot, byte[] element) {
        List<CompletableFuture<Predecessor>> predecessors = new ArrayList<>();
        for (int k = 1; k < layout.levels; k++) {
            predecessors.add(neighbours.predecessor(snapshot, k, element));
        }
        return predecessors;
    }

    private void addTo(Transaction tr, int level, byte[] element, long delta) {
        if (delta != 0) {
            tr.mutate(MutationType.ADD, layout.key(level, element), RankedSetLayout.encodeCount(delta));
        }
    }

    private static CompletableFuture<Void> allOf(CompletableFuture<?> first, List<? extends CompletableFuture<?>> second,
                                                 List<? extends CompletableFuture<?>> third) {
        List<CompletableFuture<?>> all = new ArrayList<>(second);
        all.addAll(third);
        all.add(first);
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }
}
