package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Reverse blocks as stored: one per run, split at the value limit, gaps answered absent. */
class ReverseBlockLayoutTest {
    private static final Subspace S = new Subspace(Tuple.from("blocks"));
    private final Database db = Strata.inMemory();
    private final InternerLayout layout = new InternerLayout(S);

    @AfterEach
    void close() {
        db.close();
    }

    private List<KeyValue> blocks() {
        return db.readAsync(tr -> tr.getRange(Range.startsWith(layout.reversePrefix)).asList()).join();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aBatchFromOneCounterIsOneBlock() {
        StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
        long[] ids = in.internAllStrings(db, List.of("a", "b", "c", "a")).join();
        assertThat(ids).containsExactly(1, 2, 3, 1);
        List<KeyValue> blocks = blocks();
        assertThat(blocks).hasSize(1);
        assertThat(layout.firstIdOf(blocks.get(0).getKey())).isEqualTo(1);
        assertThat(blocks.get(0).getValue()).containsExactly(1, 'a', 1, 'b', 1, 'c');
    }

    @Test
    void aRunLongerThanTheValueLimitIsSplitIntoBlocksThatEachFit() {
        StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
        List<byte[]> batch = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            byte[] s = new byte[9_000];
            Arrays.fill(s, (byte) ('a' + i % 26));
            s[0] = (byte) i; // distinct
            batch.add(s);
        }
        long[] ids = in.internAll(db, batch).join();
        for (int i = 0; i < ids.length; i++) {
            assertThat(ids[i]).isEqualTo(i + 1);
            assertThat(in.lookup(db, ids[i]).join().orElseThrow()).isEqualTo(batch.get(i));
        }
        List<KeyValue> blocks = blocks();
        // 9,002 bytes an entry: 11 fit in 100,000, so 11 + 11 + 8, keyed 1, 12, 23.
        assertThat(blocks).extracting(kv -> layout.firstIdOf(kv.getKey())).containsExactly(1L, 12L, 23L);
        int entries = 0;
        for (KeyValue kv : blocks) {
            assertThat(kv.getValue().length).isLessThanOrEqualTo(ReverseBlocks.VALUE_SIZE_LIMIT);
            entries += ReverseBlocks.entries(kv.getValue()).size();
        }
        assertThat(entries).isEqualTo(30);
        InternerChecks.assertBijection(db, S, null, null);
    }

    @Test
    void theEmptyStringIsAnEntryOfLengthZero() {
        StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
        long[] ids = in.internAllStrings(db, List.of("x", "", "y")).join();
        assertThat(in.lookupString(db, ids[1]).join()).contains("");
        assertThat(in.lookupString(db, ids[2]).join()).contains("y");
        long alone = new StringInterner(S, SingleCounterAllocator::new).intern(db, new byte[0]).join();
        assertThat(alone).isEqualTo(ids[1]);
        assertThat(blocks().get(0).getValue()).containsExactly(1, 'x', 0, 1, 'y');
    }

    @Test
    void idsInGapsBeforeTheFirstAndAfterTheLastBlockNameNothing() {
        StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
        long[] ab = in.internAllStrings(db, List.of("a", "b")).join(); // 1, 2
        // IDs 3..5 allocated by a committed transaction that wrote no mapping: burned.
        db.run(tr -> new SingleCounterAllocator(StringInterner.countersOf(S)).allocate(tr, 3).join());
        long c = in.intern(db, "c").join();
        assertThat(ab).containsExactly(1, 2);
        assertThat(c).isEqualTo(6);
        for (long unused : new long[] {0, 3, 4, 5, 7, 1_000, Long.MAX_VALUE, Long.MIN_VALUE, -1L}) {
            assertThat(in.lookup(db, unused).join()).as("ID %s", Long.toUnsignedString(unused)).isEmpty();
            assertThat(db.readAsync(tr -> in.lookup(tr, unused)).join()).isEmpty();
        }
        assertThat(in.lookupString(db, 2).join()).contains("b");
        assertThat(in.lookupString(db, 6).join()).contains("c");

        long[] probe = {6, 0, 2, 1, 3, 2, 7, -1L, 5, 4};
        List<Optional<String>> all = db.readAsync(tr -> in.lookupAllStrings(tr, probe)).join();
        assertThat(all).containsExactly(Optional.of("c"), Optional.empty(), Optional.of("b"), Optional.of("a"),
                Optional.empty(), Optional.of("b"), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Test
    void lookupAllReadsAcrossAdjacentBlocks() {
        StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
        in.internAllStrings(db, List.of("a", "b", "c")).join(); // block 1
        in.internAllStrings(db, List.of("d", "e")).join();      // block 4
        in.intern(db, "f").join();                               // block 6
        assertThat(blocks()).hasSize(3);
        long[] probe = {6, 5, 4, 3, 2, 1, 0, 7};
        List<Optional<String>> all = db.readAsync(tr -> in.lookupAllStrings(tr, probe)).join();
        assertThat(all).containsExactly(Optional.of("f"), Optional.of("e"), Optional.of("d"), Optional.of("c"),
                Optional.of("b"), Optional.of("a"), Optional.empty(), Optional.empty());
        assertThat(db.readAsync(tr -> in.lookupAll(tr, new long[0])).join()).isEmpty();
    }

    @Test
    void hcaIdsAreMostlyRunsOfOneAndAllRoundTrip() {
        long seed = new Random().nextLong();
        System.out.println("ReverseBlockLayoutTest.hca seed=" + seed);
        StringInterner in = new StringInterner(S, counters -> new HcaIdAllocator(counters, new Random(seed)));
        List<String> strings = new ArrayList<>();
        long[] ids = new long[200];
        for (int batch = 0; batch < 4; batch++) {
            List<String> some = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                some.add("h" + (batch * 50 + i));
            }
            strings.addAll(some);
            System.arraycopy(in.internAllStrings(db, some).join(), 0, ids, batch * 50, 50);
        }
        for (int i = 0; i < ids.length; i++) {
            assertThat(in.lookupString(db, ids[i]).join()).contains(strings.get(i));
        }
        List<Optional<String>> all = db.readAsync(tr -> in.lookupAllStrings(tr, ids)).join();
        for (int i = 0; i < ids.length; i++) {
            assertThat(all.get(i)).contains(strings.get(i));
        }
        assertThat(blocks().size()).isBetween(2, 200);
        InternerChecks.assertBijection(db, S, null, null);
    }

    @Test
    void aRunNeverWrapsPastTheLargestId() {
        // An allocator handing out the last two IDs and then 0: two runs, since 0 does not follow 2^64 - 1.
        StringInterner in = new StringInterner(S, counters -> (tr, count) ->
                java.util.concurrent.CompletableFuture.completedFuture(new long[] {-2L, -1L, 0L}));
        long[] ids = in.internAll(db, List.of(b("p"), b("q"), b("r"))).join();
        assertThat(ids).containsExactly(-2L, -1L, 0L);
        assertThat(blocks()).extracting(kv -> layout.firstIdOf(kv.getKey())).containsExactly(0L, -2L);
        assertThat(in.lookupString(db, -1L).join()).contains("q");
        assertThat(in.lookupString(db, 0L).join()).contains("r");
        assertThat(in.lookupString(db, 1L).join()).isEmpty();
        assertThat(db.readAsync(tr -> in.lookupAllStrings(tr, new long[] {-1L, 0L, -2L, 1L})).join())
                .containsExactly(Optional.of("q"), Optional.of("r"), Optional.of("p"), Optional.empty());
    }
}
