package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The read conflict range of a serializable lookup: a reverse range read cut by its limit of
 * one depends on [its block's key, reverse(id) ++ 0x00) only, as in FoundationDB. So a lookup
 * does not conflict with interning into other blocks, and does with a write of its own block
 * or of a block filling the gap it found. Interleaved deterministically: T1 reads, T2
 * commits, T1 commits (T1 writes an unrelated key, since a transaction without writes is
 * never checked for conflicts).
 */
class ReverseBlockConflictTest {
    private static final Subspace S = new Subspace(Tuple.from("block-conflict"));
    private static final byte[] UNRELATED = Tuple.from("elsewhere").pack();
    private final Database db = Strata.inMemory();
    private final InternerLayout layout = new InternerLayout(S);

    @AfterEach
    void close() {
        db.close();
    }

    /** An interner whose allocator hands out the IDs given, next batch per call (these tests control the blocks). */
    private static StringInterner fixedIds(long[]... batches) {
        int[] next = {0};
        IdAllocator fixed = (tr, count) -> {
            long[] ids = batches[next[0]++];
            assertThat(ids).hasSize(count);
            return CompletableFuture.completedFuture(ids);
        };
        return new StringInterner(S, counters -> fixed);
    }

    private StringInterner in;

    @BeforeEach
    void blockAt100() {
        in = fixedIds(new long[] {100, 101, 102}, new long[] {200, 201}, new long[] {10, 11}, new long[] {50});
        in.internAllStrings(db, List.of("a", "b", "c")).join();
    }

    /** T1 looks up with {@code read}; then T2 runs {@code write} and commits; then T1 commits. */
    private void interleave(BiFunction<Transaction, StringInterner, CompletableFuture<?>> read,
                            java.util.function.Consumer<Transaction> write, boolean conflicts) {
        try (Transaction t1 = db.createTransaction(); Transaction t2 = db.createTransaction()) {
            read.apply(t1, in).join();
            t1.set(UNRELATED, new byte[] {1});
            write.accept(t2);
            t2.commit().join();
            if (conflicts) {
                assertThatThrownBy(() -> t1.commit().join()).hasCauseInstanceOf(FDBException.class)
                        .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020));
            } else {
                t1.commit().join();
            }
        }
    }

    private static CompletableFuture<?> lookup101(Transaction tr, StringInterner in) {
        return in.lookupString(tr, 101).thenAccept(s -> assertThat(s).contains("b"));
    }

    @Test
    void aLookupDoesNotConflictWithInterningIntoALaterBlock() {
        interleave(ReverseBlockConflictTest::lookup101, t2 -> in.internAllStrings(t2, List.of("d", "e")).join(), false);
        assertThat(in.lookupString(db, 201).join()).contains("e");
    }

    @Test
    void aLookupDoesNotConflictWithInterningIntoAnEarlierBlock() {
        in.internAllStrings(db, List.of("d", "e")).join(); // uses the batch 200, 201
        interleave(ReverseBlockConflictTest::lookup101, t2 -> in.internAllStrings(t2, List.of("f", "g")).join(), false);
        assertThat(in.lookupString(db, 11).join()).contains("g");
    }

    @Test
    void aLookupConflictsWithAWriteOfItsOwnBlock() {
        interleave(ReverseBlockConflictTest::lookup101, t2 -> t2.set(layout.reverse(100), new byte[] {1, 'z'}), true);
    }

    @Test
    void aLookupInAGapConflictsWithABlockWrittenIntoTheGap() {
        in.internAllStrings(db, List.of("d", "e")).join(); // 200, 201
        in.internAllStrings(db, List.of("f", "g")).join(); // 10, 11
        // ID 50 lies after block 10's range: absent. T2 then interns a string as ID 50.
        interleave((t1, i) -> i.lookup(t1, 50).thenAccept(s -> assertThat(s).isEmpty()),
                t2 -> in.intern(t2, "h").join(), true);
        assertThat(in.lookupString(db, 50).join()).contains("h");
    }

    @Test
    void aBatchLookupDependsOnlyOnTheBlocksOfItsRuns() {
        BiFunction<Transaction, StringInterner, CompletableFuture<?>> both = (t1, i) -> i.lookupAllStrings(t1, new long[] {102, 101})
                .thenAccept(s -> assertThat(s).containsExactly(Optional.of("c"), Optional.of("b")));
        interleave(both, t2 -> in.internAllStrings(t2, List.of("d", "e")).join(), false);
        interleave(both, t2 -> t2.set(layout.reverse(100), new byte[] {1, 'z'}), true);
    }
}
