package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of set operations, several to a transaction, against a model: a
 * {@link TreeSet} ordered as unsigned numbers. After every transaction the answers
 * ({@code add}/{@code remove} results, batch counts, {@code contains}, {@code cardinality})
 * and at the end the iteration, the bitmap and the stored keys must match the model.
 *
 * <p>Members come from a pool that makes operations collide: the unsigned edges (0, 2^16
 * boundaries, 2^63, 2^64-1), a few containers' worth of small numbers, and random longs.
 */
class RoaringSetPropertyTest {
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
        return new RoaringSet(new Subspace(Tuple.from("p", NEXT_SET.incrementAndGet())));
    }

    static TreeSet<Long> model() {
        return new TreeSet<>(Long::compareUnsigned);
    }

    /** One operation: its kind and its members (one for the single-member kinds). */
    record Op(Kind kind, long[] members) {
        @Override
        public String toString() {
            List<String> shown = new ArrayList<>();
            for (long m : members) {
                shown.add(Long.toUnsignedString(m));
            }
            return kind + shown.toString();
        }
    }

    enum Kind { ADD, REMOVE, ADD_ALL, REMOVE_ALL, ADD_BITMAP, CONTAINS, CARDINALITY }

    @Property(tries = 150)
    void behavesLikeAnUnsignedTreeSet(@ForAll("transactions") List<List<Op>> transactions) {
        RoaringSet set = freshSet();
        TreeSet<Long> model = model();
        for (List<Op> ops : transactions) {
            TreeSet<Long> after = new TreeSet<>(model);
            db.run(tr -> {
                after.clear();
                after.addAll(model); // the model of this attempt, discarded if it retries
                for (Op op : ops) {
                    apply(tr, set, after, op);
                }
                return null;
            });
            model.clear();
            model.addAll(after);
        }
        try (Transaction tr = db.createTransaction()) {
            assertThat(set.members(tr).asList().join()).containsExactlyElementsOf(model);
            assertThat(set.cardinality(tr).join()).isEqualTo(model.size());
            Roaring64Bitmap bitmap = set.toBitmap(tr).join();
            assertThat(bitmap.getLongCardinality()).isEqualTo(model.size());
            assertThat(bitmap.toArray()).containsExactly(model.stream().mapToLong(Long::longValue).toArray());
            long containers = model.stream().map(m -> m >>> 16).distinct().count();
            assertThat(tr.getRange(set.containerRange()).asList().join()).hasSize((int) containers);
            if (!model.isEmpty()) {
                long from = model.last() == 0 ? 0 : model.last() - 1;
                assertThat(set.members(tr, from).asList().join()).containsExactlyElementsOf(model.tailSet(from, true));
            }
        }
    }

    private static void apply(Transaction tr, RoaringSet set, TreeSet<Long> model, Op op) {
        long m = op.members()[0];
        switch (op.kind()) {
            case ADD -> assertThat(set.add(tr, m).join()).as("%s", op).isEqualTo(model.add(m));
            case REMOVE -> assertThat(set.remove(tr, m).join()).as("%s", op).isEqualTo(model.remove(m));
            case ADD_ALL -> {
                long added = set.addAll(tr, op.members()).join();
                long expected = 0;
                for (long x : op.members()) {
                    expected += model.add(x) ? 1 : 0;
                }
                assertThat(added).as("%s", op).isEqualTo(expected);
            }
            case REMOVE_ALL -> {
                long removed = set.removeAll(tr, op.members()).join();
                long expected = 0;
                for (long x : op.members()) {
                    expected += model.remove(x) ? 1 : 0;
                }
                assertThat(removed).as("%s", op).isEqualTo(expected);
            }
            case ADD_BITMAP -> {
                long added = set.addAll(tr, Roaring64Bitmap.bitmapOf(op.members())).join();
                long expected = 0;
                for (long x : op.members()) {
                    expected += model.add(x) ? 1 : 0;
                }
                assertThat(added).as("%s", op).isEqualTo(expected);
            }
            case CONTAINS -> assertThat(set.contains(tr, m).join()).as("%s", op).isEqualTo(model.contains(m));
            case CARDINALITY -> assertThat(set.cardinality(tr).join()).as("%s", op).isEqualTo(model.size());
        }
    }

    @Provide
    Arbitrary<List<List<Op>>> transactions() {
        Arbitrary<Op> single = Combinators.combine(
                Arbitraries.of(Kind.ADD, Kind.ADD, Kind.REMOVE, Kind.CONTAINS, Kind.CARDINALITY), members())
                .as((k, m) -> new Op(k, new long[] {m}));
        Arbitrary<Op> batch = Combinators.combine(Arbitraries.of(Kind.ADD_ALL, Kind.REMOVE_ALL, Kind.ADD_BITMAP),
                members().list().ofMinSize(1).ofMaxSize(40))
                .as((k, ms) -> new Op(k, ms.stream().mapToLong(Long::longValue).toArray()));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, single),
                        net.jqwik.api.Tuple.of(1, batch))
                .list().ofMinSize(1).ofMaxSize(4)
                .list().ofMinSize(1).ofMaxSize(25);
    }

    /** Members that collide: unsigned edges, a dense stretch over three containers, random longs. */
    static Arbitrary<Long> members() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, Arbitraries.of(0L, 1L, 65535L, 65536L, 65537L, Long.MAX_VALUE, Long.MIN_VALUE,
                        Long.MIN_VALUE + 1, -65537L, -65536L, -2L, -1L)),
                net.jqwik.api.Tuple.of(4, Arbitraries.longs().between(65_000, 200_000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.longs()));
    }
}
