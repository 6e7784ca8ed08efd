package io.strata.layers.ranked;

import static io.strata.layers.ranked.RankedSetChecks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link RankedSet#addAllToEmpty}: the same keys and counts as adding one element at a time, with towers, heads and the empty element. */
class RankedSetBulkLoadTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private List<KeyValue> stored(RankedSet s) {
        try (Transaction tr = db.createTransaction()) {
            List<KeyValue> kvs = tr.getRange(s.subspace().range()).asList().join();
            List<KeyValue> relative = new ArrayList<>();
            byte[] prefix = s.subspace().getKey();
            for (KeyValue kv : kvs) {
                relative.add(new KeyValue(java.util.Arrays.copyOfRange(kv.getKey(), prefix.length, kv.getKey().length), kv.getValue()));
            }
            return relative;
        }
    }

    /**
     * {@code size} distinct random elements, the empty one among them: it gives every level's
     * head a count, as adds leave it (a bulk load leaves a head with nothing before the first
     * tower absent, which counts 0 too but compares differently).
     */
    private static TreeSet<byte[]> randomElements(Random random, int size) {
        TreeSet<byte[]> model = RankedSetChecks.model();
        model.add(new byte[0]);
        while (model.size() < size) {
            byte[] e = new byte[1 + random.nextInt(6)];
            random.nextBytes(e);
            model.add(e);
        }
        return model;
    }

    /** Adds the elements to {@code set} one transaction each, in a random order; returns that order. */
    private List<byte[]> addedOneByOne(RankedSet set, TreeSet<byte[]> elements, Random random) {
        List<byte[]> shuffled = new ArrayList<>(elements);
        Collections.shuffle(shuffled, random);
        for (byte[] e : shuffled) {
            db.runAsync(tr -> set.add(tr, e)).join();
        }
        return shuffled;
    }

    private void assertSameKeysAndValues(RankedSet actual, RankedSet expected) {
        assertThat(stored(actual)).usingElementComparator((x, y) -> java.util.Arrays.equals(x.getKey(), y.getKey())
                && java.util.Arrays.equals(x.getValue(), y.getValue()) ? 0 : 1).containsExactlyElementsOf(stored(expected));
    }

    /** A set with fanout 2, which makes many towers, so every level has several keys and counts. */
    private static RankedSet fanoutTwo(String name) {
        return new RankedSet(new Subspace(Tuple.from(name)), 2, 5);
    }

    @Test
    void bulkLoadLeavesWhatAddsLeave() {
        RankedSet incremental = fanoutTwo("a");
        RankedSet bulk = fanoutTwo("b");
        Random random = new Random(7);
        TreeSet<byte[]> model = randomElements(random, 400);
        List<byte[]> shuffled = addedOneByOne(incremental, model, random);
        db.run(tr -> {
            bulk.addAllToEmpty(tr, shuffled);
            return null;
        });
        assertSameKeysAndValues(bulk, incremental);
        try (Transaction tr = db.createTransaction()) {
            RankedSetChecks.assertStructure(tr, bulk, model);
            assertThat(bulk.size(tr).join()).isEqualTo(400);
        }
        // The loaded set goes on working as any other.
        db.runAsync(tr -> bulk.remove(tr, shuffled.get(0))).join();
        model.remove(shuffled.get(0));
        try (Transaction tr = db.createTransaction()) {
            RankedSetChecks.assertStructure(tr, bulk, model);
        }
    }

    @Test
    void theBulkLoadsWritesSpreadOverSeveralTransactionsLeaveTheSameSet() {
        RankedSet incremental = fanoutTwo("d");
        RankedSet spread = fanoutTwo("e");
        Random random = new Random(11);
        List<byte[]> shuffled = addedOneByOne(incremental, randomElements(random, 300), random);
        List<byte[][]> writes = spread.addAllToEmptyWrites(shuffled);
        Collections.shuffle(writes, random); // independent blind sets: any grouping, any order
        for (int from = 0; from < writes.size(); from += 97) {
            List<byte[][]> chunk = writes.subList(from, Math.min(writes.size(), from + 97));
            db.run(tr -> {
                chunk.forEach(kv -> tr.set(kv[0], kv[1]));
                return null;
            });
        }
        assertSameKeysAndValues(spread, incremental);
        TreeSet<byte[]> model = RankedSetChecks.model();
        model.addAll(shuffled);
        try (Transaction tr = db.createTransaction()) {
            RankedSetChecks.assertStructure(tr, spread, model);
        }
    }

    @Test
    void duplicatesAreRefusedBeforeAnyWrite() {
        RankedSet set = new RankedSet(new Subspace(Tuple.from("c")));
        assertThatThrownBy(() -> db.run(tr -> {
            set.addAllToEmpty(tr, List.of(bytes("x"), bytes("y"), bytes("x")));
            return null;
        })).hasRootCauseInstanceOf(IllegalArgumentException.class);
        assertThat(stored(set)).isEmpty();
    }
}
