package io.strata.layers.ranked;

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

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of operations, several to a transaction, against a model: a {@link TreeSet}
 * in unsigned byte order. Every answer ({@code add}/{@code remove} results, {@code contains},
 * {@code rank}, {@code rankOf}, {@code getNth}, {@code count}, {@code size}, scans from a rank)
 * must match the model, inside the transaction (reading its own writes) and after; at the end
 * the stored structure must satisfy the invariant, read straight from the keys.
 *
 * <p>Elements are short strings over a few edge bytes ({@code 0x00}, {@code 0x01},
 * {@code 0x7f}, {@code 0x80}, {@code 0xff}), the empty element included, so operations collide
 * and prefixes of each other abound; small fanouts make most elements towers, so tower builds
 * and merges are exercised at every level.
 */
class RankedSetPropertyTest {
    private static final Byte[] ALPHABET = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xff};
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

    record Config(int fanoutBits, int levels) {
    }

    enum Kind { ADD, REMOVE, CONTAINS, RANK, RANK_OF, GET_NTH, COUNT, SIZE, SCAN_FROM_RANK }

    /** One operation: its kind, two elements (the second is a count's end, or unused) and a rank. */
    record Op(Kind kind, byte[] a, byte[] b, int n) {
        @Override
        public String toString() {
            HexFormat hex = HexFormat.of();
            return kind + "(" + hex.formatHex(a) + ", " + hex.formatHex(b) + ", " + n + ")";
        }
    }

    @Property(tries = 60)
    void behavesLikeATreeSetOfByteStrings(@ForAll("configs") Config config,
                                          @ForAll("transactions") List<List<Op>> transactions) {
        RankedSet set = new RankedSet(new Subspace(Tuple.from("p", NEXT_SET.incrementAndGet())),
                config.fanoutBits(), config.levels());
        TreeSet<byte[]> model = RankedSetChecks.model();
        for (List<Op> ops : transactions) {
            TreeSet<byte[]> after = RankedSetChecks.model();
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
            RankedSetChecks.assertStructure(tr, set, model);
            assertThat(set.size(tr).join()).isEqualTo(model.size());
            int i = 0;
            for (byte[] e : model) {
                assertThat(set.getNth(tr, i).join()).as("getNth(%d)", i).contains(e);
                assertThat(set.rank(tr, e).join()).as("rank of element %d", i).isEqualTo(OptionalLong.of(i));
                i++;
            }
            assertThat(set.getNth(tr, i).join()).isEmpty();
        }
    }

    private static void apply(Transaction tr, RankedSet set, TreeSet<byte[]> model, Op op) {
        switch (op.kind()) {
            case ADD -> assertThat(set.add(tr, op.a()).join()).as("%s", op).isEqualTo(model.add(op.a()));
            case REMOVE -> assertThat(set.remove(tr, op.a()).join()).as("%s", op).isEqualTo(model.remove(op.a()));
            case CONTAINS -> assertThat(set.contains(tr, op.a()).join()).as("%s", op).isEqualTo(model.contains(op.a()));
            case RANK -> assertThat(set.rank(tr, op.a()).join()).as("%s", op).isEqualTo(model.contains(op.a())
                    ? OptionalLong.of(RankedSetChecks.rankIn(model, op.a())) : OptionalLong.empty());
            case RANK_OF -> assertThat(set.rankOf(tr, op.a()).join()).as("%s", op)
                    .isEqualTo(RankedSetChecks.rankIn(model, op.a()));
            case GET_NTH -> {
                Optional<byte[]> nth = set.getNth(tr, op.n()).join();
                if (op.n() < model.size()) {
                    assertThat(nth).as("%s", op).contains(new ArrayList<>(model).get(op.n()));
                } else {
                    assertThat(nth).as("%s", op).isEmpty();
                }
            }
            case COUNT -> {
                long expected = RankedSetChecks.ORDER.compare(op.a(), op.b()) >= 0 ? 0
                        : model.subSet(op.a(), true, op.b(), false).size();
                assertThat(set.count(tr, op.a(), op.b()).join()).as("%s", op).isEqualTo(expected);
                assertThat(set.count(tr, op.a(), null).join()).as("%s to the end", op)
                        .isEqualTo(model.tailSet(op.a(), true).size());
            }
            case SIZE -> assertThat(set.size(tr).join()).as("%s", op).isEqualTo(model.size());
            case SCAN_FROM_RANK -> {
                List<byte[]> all = new ArrayList<>(model);
                boolean reverse = op.a().length % 2 == 1;
                List<byte[]> expected = new ArrayList<>();
                if (op.n() < all.size()) {
                    List<byte[]> tail = reverse ? new ArrayList<>(all.subList(0, op.n() + 1)) : all.subList(op.n(), all.size());
                    if (reverse) {
                        java.util.Collections.reverse(tail);
                    }
                    expected = tail.subList(0, Math.min(3, tail.size()));
                }
                assertThat(set.scanFromRank(tr, op.n(), 3, reverse).asList().join()).as("%s", op)
                        .containsExactlyElementsOf(expected);
            }
        }
    }

    @Provide
    Arbitrary<Config> configs() {
        return Arbitraries.of(new Config(1, 4), new Config(1, 7), new Config(2, 4), new Config(4, 3),
                new Config(RankedSet.DEFAULT_FANOUT_BITS, RankedSet.DEFAULT_LEVELS));
    }

    @Provide
    Arbitrary<List<List<Op>>> transactions() {
        // Changes most often, so the set grows; every query kind now and then.
        Arbitrary<Kind> kinds = Arbitraries.of(Kind.ADD, Kind.ADD, Kind.ADD, Kind.ADD, Kind.ADD, Kind.ADD,
                Kind.REMOVE, Kind.REMOVE, Kind.REMOVE, Kind.CONTAINS, Kind.RANK, Kind.RANK_OF, Kind.GET_NTH, Kind.COUNT,
                Kind.SIZE, Kind.SCAN_FROM_RANK);
        Arbitrary<Op> op = Combinators.combine(kinds, elements(), elements(), Arbitraries.integers().between(0, 40))
                .as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(5).list().ofMinSize(1).ofMaxSize(30);
    }

    static Arbitrary<byte[]> elements() {
        return Arbitraries.of(ALPHABET).list().ofMaxSize(3).map(list -> {
            byte[] bytes = new byte[list.size()];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = list.get(i);
            }
            return bytes;
        });
    }
}
