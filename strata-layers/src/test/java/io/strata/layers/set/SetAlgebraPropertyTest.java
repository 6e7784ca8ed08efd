package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each {@link SetOperation} over 1 to 4 random sets against the same operation on
 * {@link TreeSet}s ordered as unsigned numbers: the computed bitmap, and the result stored
 * into a fresh set and into the first input (which is read before it is overwritten).
 * Sets mix shapes so every container pairing occurs: sparse arrays, dense bitmaps, runs.
 */
class SetAlgebraPropertyTest {
    private static Database db;
    private static final AtomicLong NEXT_SET = new AtomicLong();

    @BeforeContainer
    static void open() {
        db = Strata.inMemory();
    }

    @AfterContainer
    static void close() {
        db.close();
    }

    private static RoaringSet freshSet() {
        return new RoaringSet(new Subspace(Tuple.from("a", NEXT_SET.incrementAndGet())));
    }

    @Property(tries = 100)
    void matchesTheModel(@ForAll("operations") SetOperation op, @ForAll("inputs") List<Set<Long>> contents) {
        List<RoaringSet> sets = new ArrayList<>();
        List<TreeSet<Long>> models = new ArrayList<>();
        for (Set<Long> members : contents) {
            RoaringSet s = freshSet();
            s.addAll(db, members.stream().mapToLong(Long::longValue).toArray(), 5000).join();
            sets.add(s);
            TreeSet<Long> model = RoaringSetPropertyTest.model();
            model.addAll(members);
            models.add(model);
        }
        TreeSet<Long> expected = expected(op, models);
        long[] expectedArray = expected.stream().mapToLong(Long::longValue).toArray();

        Roaring64Bitmap computed = SetAlgebra.compute(db, op, sets).join();
        assertThat(computed.toArray()).as("%s", op).isEqualTo(expectedArray);

        RoaringSet target = freshSet();
        assertThat(SetAlgebra.store(db, op, target, sets).join()).isEqualTo(expected.size());
        assertStored(target, expected);

        assertThat(SetAlgebra.store(db, op, sets.get(0), sets).join()).isEqualTo(expected.size());
        assertStored(sets.get(0), expected);
    }

    private static void assertStored(RoaringSet set, TreeSet<Long> expected) {
        try (Transaction tr = db.createTransaction()) {
            assertThat(set.members(tr).asList().join()).isEqualTo(new ArrayList<>(expected));
            assertThat(set.cardinality(tr).join()).isEqualTo(expected.size());
            long containers = expected.stream().map(m -> m >>> 16).distinct().count();
            assertThat(tr.getRange(set.containerRange()).asList().join()).hasSize((int) containers);
        }
    }

    static TreeSet<Long> expected(SetOperation op, List<TreeSet<Long>> models) {
        TreeSet<Long> result = RoaringSetPropertyTest.model();
        result.addAll(models.get(0));
        for (TreeSet<Long> other : models.subList(1, models.size())) {
            switch (op) {
                case AND -> result.retainAll(other);
                case OR -> result.addAll(other);
                case AND_NOT -> result.removeAll(other);
                case XOR -> {
                    for (Long m : other) {
                        if (!result.remove(m)) {
                            result.add(m);
                        }
                    }
                }
            }
        }
        return result;
    }

    @Provide
    Arbitrary<SetOperation> operations() {
        return Arbitraries.of(SetOperation.class);
    }

    /** 1 to 4 sets, each of one shape; shapes overlap in the same few containers so the operations meet. */
    @Provide
    Arbitrary<List<Set<Long>>> inputs() {
        Arbitrary<Set<Long>> sparse = RoaringSetPropertyTest.members().set().ofMaxSize(60);
        Arbitrary<Set<Long>> dense = Arbitraries.longs().between(60_000, 140_000).set().ofMinSize(4500).ofMaxSize(6000);
        Arbitrary<Set<Long>> runs = Arbitraries.longs().between(60_000, 140_000).flatMap(start ->
                Arbitraries.integers().between(1, 20_000).map(length -> {
                    Set<Long> s = new java.util.HashSet<>();
                    for (long i = start; i < start + length; i++) {
                        s.add(i);
                    }
                    return s;
                }));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, sparse),
                net.jqwik.api.Tuple.of(1, dense),
                net.jqwik.api.Tuple.of(1, runs)).list().ofMinSize(1).ofMaxSize(4);
    }
}
