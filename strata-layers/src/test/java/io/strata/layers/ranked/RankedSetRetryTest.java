package io.strata.layers.ranked;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import static io.strata.layers.ranked.RankedSetChecks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code commit_unknown_result} (1021) after a commit that did happen: the retry must find the
 * change done and change nothing, so no count moves twice. Once simulated plainly (the same
 * change run again in a fresh transaction), once with the engine reporting 1021 for a commit
 * it applied, retried through {@code onError} as {@code db.run} would. Elements of every tower
 * height are tried, since a tower's change writes differently from a flat one's.
 */
class RankedSetRetryTest {
    private static final int LEVELS = 4;

    /** Elements of heights 0 to LEVELS - 1, two of each, interleaved in key order with some flat neighbours. */
    private static List<byte[]> elementsOfEveryHeight(RankedSet set) {
        List<byte[]> elements = new ArrayList<>();
        for (int h = 0; h < LEVELS; h++) {
            elements.addAll(RankedSetTest.withHeight(set, h, "e", 2));
        }
        elements.addAll(RankedSetTest.withHeight(set, 0, "f", 6));
        return elements;
    }

    private static void assertSet(Database db, RankedSet set, TreeSet<byte[]> model) {
        try (Transaction tr = db.createTransaction()) {
            RankedSetChecks.assertStructure(tr, set, model);
            assertThat(set.size(tr).join()).isEqualTo(model.size());
        }
    }

    @Test
    void theSameChangeRunTwiceCountsOnce() {
        RankedSet set = new RankedSet(new Subspace(Tuple.from("twice")), 2, LEVELS);
        TreeSet<byte[]> model = RankedSetChecks.model();
        try (Database db = Strata.inMemory()) {
            for (byte[] e : elementsOfEveryHeight(set)) {
                assertThat(db.runAsync(tr -> set.add(tr, e)).join()).isTrue();
                assertThat(db.runAsync(tr -> set.add(tr, e)).join()).as("the add's retry").isFalse();
                model.add(e);
                assertSet(db, set, model);
            }
            for (byte[] e : elementsOfEveryHeight(set)) {
                assertThat(db.runAsync(tr -> set.remove(tr, e)).join()).isTrue();
                assertThat(db.runAsync(tr -> set.remove(tr, e)).join()).as("the remove's retry").isFalse();
                model.remove(e);
                assertSet(db, set, model);
            }
        }
    }

    @Test
    void aChangeRetriedAfterUnknownResultOfACommittedAttemptCountsOnce() {
        RankedSet set = new RankedSet(new Subspace(Tuple.from("unknown")), 2, LEVELS);
        TreeSet<byte[]> model = RankedSetChecks.model();
        FaultPolicy everyCommitLosesItsReply = FaultPolicy.seeded(1).unknownResultCommitted(1.0).build();
        try (Database db = Strata.builder().faults(everyCommitLosesItsReply).inMemory()) {
            for (byte[] e : elementsOfEveryHeight(set)) {
                assertThat(runTwice(db, tr -> set.add(tr, e))).containsExactly(true, false);
                model.add(e);
                assertSet(db, set, model);
            }
            for (byte[] e : elementsOfEveryHeight(set)) {
                assertThat(runTwice(db, tr -> set.remove(tr, e))).containsExactly(true, false);
                model.remove(e);
                assertSet(db, set, model);
            }
        }
    }

    /**
     * The first attempt commits and hears 1021; {@code onError} retries it, and the retry,
     * finding nothing to do, writes nothing, so its commit is read-only and succeeds.
     */
    private static List<Boolean> runTwice(Database db, Function<Transaction, java.util.concurrent.CompletableFuture<Boolean>> op) {
        List<Boolean> answers = new ArrayList<>();
        Transaction tr = db.createTransaction();
        try {
            answers.add(op.apply(tr).join());
            Transaction first = tr;
            assertThatThrownBy(() -> first.commit().join()).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(FDBException.class)
                    .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1021));
            FDBException unknown = new FDBException("commit_unknown_result", 1021);
            tr = tr.onError(unknown).join();
            answers.add(op.apply(tr).join());
            tr.commit().join();
        } finally {
            tr.close();
        }
        return answers;
    }
}
