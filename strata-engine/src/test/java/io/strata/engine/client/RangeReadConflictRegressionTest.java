package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression tests for the read conflict range of range reads, each named after the bug it
 * pins. Conflict ranges follow FoundationDB's RYW {@code addConflictRange}: a plain range
 * read conflicts on {@code [begin, end)}, or up to just past its last row when its limit cut
 * it short; only a selector that had to move past the last key extends it to the end.
 */
class RangeReadConflictRegressionTest {
    private static byte[] b(String s) {
        return s.getBytes();
    }

    /**
     * In a fresh database holding {@code b} and {@code c}: runs {@code read} in T1, commits a
     * write of {@code other} in T2, then T1 writes elsewhere; returns T1's commit outcome (0
     * or the error code).
     */
    private static int outcome(Consumer<Transaction> read, byte[] other) {
        try (Database db = Strata.inMemory(); Transaction t1 = db.createTransaction()) {
            db.run(tr -> {
                tr.set(b("b"), b("1"));
                tr.set(b("c"), b("1"));
                return null;
            });
            read.accept(t1);
            db.run(tr -> {
                tr.set(other, b("x"));
                return null;
            });
            t1.set(b("0-t1"), b("1"));
            try {
                t1.commit().join();
                return 0;
            } catch (CompletionException e) {
                return ((FDBException) e.getCause()).getCode();
            }
        }
    }

    /**
     * A plain range read whose end lay past the last key in the database was flagged as
     * having read through the end, and conflicted with every later write up to {@code \xff}.
     */
    @Test
    void rangeReadEndingPastTheLastKeyConflictedUpToTheEndOfTheKeySpace() {
        assertThat(outcome(t -> t.getRange(b("a"), b("m")).asList().join(), b("x"))).isZero();
        assertThat(outcome(t -> t.getRange(b("a"), b("m"), 0, true).asList().join(), b("y"))).isZero();
        // Inside the range it still conflicts.
        assertThat(outcome(t -> t.getRange(b("a"), b("m")).asList().join(), b("d"))).isEqualTo(1020);
        // A selector that must move past keys that are not there does read through the end.
        assertThat(outcome(t -> t.getRange(KeySelector.firstGreaterOrEqual(b("a")),
                KeySelector.firstGreaterOrEqual(b("m")).add(1)).asList().join(), b("z"))).isEqualTo(1020);
    }

    /**
     * A range read stopped by its limit still counted its end selector's "read through the
     * end", so it conflicted with writes far past the last row it returned.
     */
    @Test
    void limitedRangeReadConflictedPastItsLastRow() {
        assertThat(outcome(t -> assertThat(t.getRange(b("a"), b("z"), 1).asList().join()).hasSize(1), b("bb"))).isZero();
        assertThat(outcome(t -> assertThat(t.getRange(b("a"), b("z"), 1, true).asList().join()).hasSize(1), b("bb"))).isZero();
        // Up to and including the last row returned, it conflicts.
        assertThat(outcome(t -> t.getRange(b("a"), b("z"), 1).asList().join(), b("ab"))).isEqualTo(1020);
        assertThat(outcome(t -> t.getRange(b("a"), b("z"), 1, true).asList().join(), b("cc"))).isEqualTo(1020);
    }
}
