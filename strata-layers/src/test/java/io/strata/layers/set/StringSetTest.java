package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.layers.interning.SingleCounterAllocator;
import io.strata.layers.interning.StringInterner;
import io.strata.layers.interning.VersionstampIdAllocator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sets of strings through an interner: membership, atomicity with interning, algebra back to strings. */
class StringSetTest {
    private static final Subspace ROOT = new Subspace(Tuple.from("string-sets"));

    private static StringInterner interner() {
        return StringInterner.sharded(ROOT.get("names"), 32, 32, 0);
    }

    private static StringSet set(StringInterner interner, String name) {
        return new StringSet(new RoaringSet(ROOT.get("sets").get(name)), interner);
    }

    @Test
    void membershipFollowsTheStrings() {
        try (Database db = Strata.inMemory()) {
            StringInterner names = interner();
            StringSet s = set(names, "s");
            assertThat(s.add(db, "alice").join()).isTrue();
            assertThat(s.add(db, "alice").join()).isFalse();
            assertThat(s.addAll(db, List.of("bob", "carol", "bob")).join()).isEqualTo(2);
            assertThat(s.contains(db, "bob").join()).isTrue();
            assertThat(s.contains(db, "dave").join()).isFalse();
            assertThat(names.find(db, "dave").join()).as("contains never interns").isEmpty();
            assertThat(s.remove(db, "dave").join()).isFalse();
            assertThat(s.remove(db, "bob").join()).isTrue();
            assertThat(s.cardinality(db).join()).isEqualTo(2);
            assertThat(s.toList(db).join()).containsExactlyInAnyOrder("alice", "carol"); // in ID order: sharded IDs are random
        }
    }

    @Test
    void internAndAddCommitTogetherOrNotAtAll() {
        try (Database db = Strata.inMemory()) {
            StringInterner names = interner();
            StringSet s = set(names, "s");
            Transaction tr = db.createTransaction();
            s.add(tr, "ghost").join();
            tr.cancel();
            tr.close();
            assertThat(names.find(db, "ghost").join()).isEmpty();
            assertThat(s.toList(db).join()).isEmpty();
            assertThat(s.cardinality(db).join()).isZero();
        }
    }

    @Test
    void algebraOverSharedIdsTurnsBackIntoStrings() {
        try (Database db = Strata.inMemory()) {
            StringInterner names = interner();
            StringSet likesTea = set(names, "tea");
            StringSet likesCoffee = set(names, "coffee");
            likesTea.addAll(db, List.of("ann", "ben", "cat")).join();
            likesCoffee.addAll(db, List.of("cat", "dan", "ann")).join();
            var both = SetAlgebra.compute(db, SetOperation.AND, List.of(likesTea.ids(), likesCoffee.ids())).join();
            assertThat(likesTea.strings(db, both).join()).containsExactlyInAnyOrder("ann", "cat");
            var teaOnly = SetAlgebra.compute(db, SetOperation.AND_NOT, List.of(likesTea.ids(), likesCoffee.ids())).join();
            assertThat(likesTea.strings(db, teaOnly).join()).containsExactly("ben");
        }
    }

    @Test
    void versionstampIdsAreRefused() {
        StringInterner stamps = StringInterner.withVersionstamps(ROOT.get("v"), new VersionstampIdAllocator(), 0);
        assertThatThrownBy(() -> new StringSet(new RoaringSet(ROOT.get("x")), stamps))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("versionstamp");
    }

    @Property(tries = 30)
    void behavesLikeATreeSet(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 2) Integer> ops,
                             @ForAll @Size(min = 40, max = 40) List<@IntRange(min = 0, max = 12) Integer> picks) {
        try (Database db = Strata.inMemory()) {
            StringSet s = new StringSet(new RoaringSet(ROOT.get("p")), new StringInterner(ROOT.get("n"), SingleCounterAllocator::new));
            TreeSet<String> model = new TreeSet<>();
            for (int i = 0; i < ops.size(); i++) {
                String member = "m" + picks.get(i);
                switch (ops.get(i)) {
                    case 0 -> assertThat(s.add(db, member).join()).isEqualTo(model.add(member));
                    case 1 -> assertThat(s.remove(db, member).join()).isEqualTo(model.remove(member));
                    default -> assertThat(s.contains(db, member).join()).isEqualTo(model.contains(member));
                }
            }
            assertThat(new TreeSet<>(s.toList(db).join())).isEqualTo(model);
            assertThat(s.cardinality(db).join()).isEqualTo((long) model.size());
            assertThat(new ArrayList<>(s.toList(db).join())).doesNotHaveDuplicates();
        }
    }
}
