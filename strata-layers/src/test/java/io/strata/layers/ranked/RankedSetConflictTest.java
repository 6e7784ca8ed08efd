package io.strata.layers.ranked;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import static io.strata.layers.ranked.RankedSetChecks.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The class notes' conflict claims, one interleaving each: the first transaction does its work,
 * the second does its own and commits, then the first commits, and either it must fail with
 * {@code not_committed} (the two depend on each other) or it must succeed (they do not). Either
 * way the structure must be exact afterwards.
 *
 * <p>The set holds {@code m0000, m0002, ...}; the changes are of odd-numbered elements placed
 * by their tower heights (fanout 4, 3 levels) relative to the stored towers.
 */
class RankedSetConflictTest {
    private static final int BASE = 400;
    private final Database db = Strata.inMemory();
    private final RankedSet set = new RankedSet(new Subspace(Tuple.from("conflicts")), 2, 3);
    private final TowerHeights heights = new TowerHeights(2, 3);
    private final TreeSet<byte[]> model = RankedSetChecks.model();

    @BeforeEach
    void fill() {
        for (int from = 0; from < BASE; from += 50) {
            int start = from;
            db.run(tr -> {
                for (int i = start; i < start + 50; i += 2) {
                    set.add(tr, element(i)).join();
                    model.add(element(i));
                }
                return null;
            });
        }
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static byte[] element(int i) {
        return bytes(String.format("m%04d", i));
    }

    private int height(int i) {
        return heights.of(element(i));
    }

    /** The first stored (even) element after {@code i} whose tower is at least {@code h} tall. */
    private int nextTower(int i, int h) {
        for (int j = i + 1; j < BASE; j++) {
            if (j % 2 == 0 && height(j) >= h) {
                return j;
            }
        }
        throw new AssertionError("no tower of height " + h + " after " + i);
    }

    /** Odd numbers in [from, to) of exactly height h. */
    private List<Integer> odd(int from, int to, int h) {
        List<Integer> found = new ArrayList<>();
        for (int j = from | 1; j < to; j += 2) {
            if (height(j) == h) {
                found.add(j);
            }
        }
        return found;
    }

    /** Runs {@code first} up to its commit, commits {@code second} entirely, then tries to commit {@code first}. */
    private boolean firstCommitsAfter(Function<Transaction, CompletableFuture<?>> first,
                                      Function<Transaction, CompletableFuture<?>> second) {
        try (Transaction t1 = db.createTransaction(); Transaction t2 = db.createTransaction()) {
            first.apply(t1).join();
            second.apply(t2).join();
            t2.commit().join();
            try {
                t1.commit().join();
                return true;
            } catch (CompletionException e) {
                assertThat(e.getCause()).isInstanceOf(FDBException.class);
                assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020);
                return false;
            }
        }
    }

    private Function<Transaction, CompletableFuture<?>> add(int i) {
        return tr -> set.add(tr, element(i)).thenApply(added -> {
            assertThat(added).isTrue();
            return null;
        });
    }

    private Function<Transaction, CompletableFuture<?>> remove(int i) {
        return tr -> set.remove(tr, element(i)).thenApply(removed -> {
            assertThat(removed).isTrue();
            return null;
        });
    }

    /** The structure is exact, given which of the two changes committed. */
    private void assertExact(boolean firstCommitted, Runnable first, Runnable second) {
        second.run();
        if (firstCommitted) {
            first.run();
        }
        try (Transaction tr = db.createTransaction()) {
            RankedSetChecks.assertStructure(tr, set, model);
        }
    }

    @Test
    void changesOfFlatElementsNeverConflictEvenWithTheSamePredecessors() {
        List<Integer> flat = odd(1, BASE, 0);
        int x = flat.get(0);
        int y = flat.get(1); // likely the same predecessor at every level
        boolean committed = firstCommitsAfter(add(x), add(y));
        assertThat(committed).isTrue();
        assertExact(true, () -> model.add(element(x)), () -> model.add(element(y)));
        int far = flat.get(flat.size() - 1);
        assertThat(firstCommitsAfter(remove(x), add(far))).isTrue();
        assertExact(true, () -> model.remove(element(x)), () -> model.add(element(far)));
    }

    @Test
    void aNewTowerConflictsWithChangesInTheStretchItSplitsAndNotBeyond() {
        int x = odd(1, BASE / 2, 2).get(0);
        int next = nextTower(x, 2);
        int inside = odd(x + 1, next, 0).get(0);
        boolean committed = firstCommitsAfter(add(x), add(inside));
        assertThat(committed).as("tower %d built while %d (before %d) was added", x, inside, next).isFalse();
        assertExact(false, () -> model.add(element(x)), () -> model.add(element(inside)));

        int later = odd(x + 1, next, 0).get(1);
        committed = firstCommitsAfter(add(later), add(x)); // the other order: the flat add's predecessor moved
        assertThat(committed).isFalse();
        assertExact(false, () -> model.add(element(later)), () -> model.add(element(x)));

        int beyond = odd(nextTower(next, 1) + 1, BASE, 0).get(0);
        assertThat(firstCommitsAfter(remove(x), add(beyond))).as("%d is past %d", beyond, next).isTrue();
        assertExact(true, () -> model.remove(element(x)), () -> model.add(element(beyond)));
    }

    @Test
    void aRemovedTowerConflictsWithChangesThatCountedInIt() {
        int w = 0;
        while (height(w) < 1) {
            w += 2;
        }
        int tower = w;
        int inside = odd(tower + 1, nextTower(tower, height(tower)), 0).get(0);
        // The add ADDs to the tower's count after the remove read it: the remove must not commit a stale merge.
        boolean committed = firstCommitsAfter(remove(tower), add(inside));
        assertThat(committed).isFalse();
        assertExact(false, () -> model.remove(element(tower)), () -> model.add(element(inside)));
        // And the other order: the add's predecessor is gone.
        int other = odd(inside + 1, nextTower(tower, 1), 0).stream().findFirst().orElse(inside + 2);
        committed = firstCommitsAfter(add(other), remove(tower));
        assertThat(committed).isFalse();
        assertExact(false, () -> model.add(element(other)), () -> model.remove(element(tower)));
    }

    @Test
    void aSerializableCountConflictsOnlyWithChangesInItsRange() {
        byte[] begin = element(100);
        byte[] end = element(200);
        Function<Transaction, CompletableFuture<?>> countThenWrite = tr -> set.count(tr, begin, end).thenApply(n -> {
            assertThat(n).isEqualTo(50);
            tr.set(bytes("unrelated"), bytes("x")); // a read-write transaction, so its reads are checked
            return null;
        });
        assertThat(firstCommitsAfter(countThenWrite, add(301))).as("an add after the range").isTrue();
        assertThat(firstCommitsAfter(countThenWrite, add(99))).as("an add before the range").isTrue();
        assertThat(firstCommitsAfter(countThenWrite, add(151))).as("an add inside the range").isFalse();
        model.add(element(301));
        model.add(element(99));
        model.add(element(151));
        try (Transaction tr = db.createTransaction()) {
            RankedSetChecks.assertStructure(tr, set, model);
        }
    }
}
