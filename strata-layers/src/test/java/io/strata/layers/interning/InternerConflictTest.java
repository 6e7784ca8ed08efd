package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The conflicts the correctness argument rests on, forced deterministically with two
 * interleaved transactions.
 */
class InternerConflictTest {
    private static final Subspace S = new Subspace(Tuple.from("conflict"));

    /** Both read "s" absent; the second to commit must fail, or "s" would get two IDs. */
    @Test
    void twoTransactionsInterningTheSameNewStringConflict() {
        try (Database db = Strata.inMemory()) {
            // Distinct sequences for sure (32 bits each): only the forward key can make them conflict.
            StringInterner in = StringInterner.sharded(S, 32, 32, 0);
            try (Transaction t1 = db.createTransaction(); Transaction t2 = db.createTransaction()) {
                long id1 = in.intern(t1, "s").join();
                long id2 = in.intern(t2, "s").join();
                assertThat(id2).isNotEqualTo(id1);
                t1.commit().join();
                assertThatThrownBy(() -> t2.commit().join()).hasCauseInstanceOf(FDBException.class)
                        .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020));
                assertThat(in.find(db, "s").join()).isEqualTo(OptionalLong.of(id1));
            }
        }
    }

    /** Different strings on different sequences never conflict: what lets the sharded sequences scale. */
    @Test
    void differentStringsOnDifferentSequencesDoNotConflict() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = StringInterner.sharded(S, 32, 32, 0);
            try (Transaction t1 = db.createTransaction(); Transaction t2 = db.createTransaction()) {
                in.internAllStrings(t1, List.of("a", "b")).join();
                in.internAllStrings(t2, List.of("c", "d")).join();
                t1.commit().join();
                t2.commit().join();
            }
            assertThat(in.findAll(db, List.of("a".getBytes(), "d".getBytes())).join()).allMatch(OptionalLong::isPresent);
        }
    }

    /** With one counter, two transactions interning different strings still conflict on the counter. */
    @Test
    void theSingleCounterMakesEveryPairConflict() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
            try (Transaction t1 = db.createTransaction(); Transaction t2 = db.createTransaction()) {
                assertThat(in.intern(t1, "a").join()).isEqualTo(1);
                assertThat(in.intern(t2, "b").join()).isEqualTo(1);
                t1.commit().join();
                assertThatThrownBy(() -> t2.commit().join()).hasCauseInstanceOf(FDBException.class);
            }
            assertThat(in.lookupString(db, 1).join()).contains("a");
        }
    }

    /**
     * A versionstamped mapping cannot be read back in the transaction that wrote it (1036), as in
     * FoundationDB — where the failed read then fails the commit with 1036 as well (RYW's commit
     * waits for every read issued and reports the first failure).
     */
    @Test
    void versionstampMappingIsUnreadableInItsOwnTransaction() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = StringInterner.withVersionstamps(S, new VersionstampIdAllocator(), 0);
            try (Transaction tr = db.createTransaction()) {
                in.stage(tr, List.of("v".getBytes())).join();
                assertThatThrownBy(() -> in.stage(tr, List.of("v".getBytes())).join())
                        .hasCauseInstanceOf(FDBException.class)
                        .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1036));
                assertThatThrownBy(() -> tr.commit().join())
                        .hasCauseInstanceOf(FDBException.class)
                        .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1036));
            }
            assertThat(in.find(db, "v").join()).isEmpty();
        }
    }
}
