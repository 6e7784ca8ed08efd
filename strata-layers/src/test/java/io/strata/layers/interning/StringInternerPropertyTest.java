package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sequences of batch interns, finds and lookups against a {@code HashMap} model, for each
 * allocator: a known string keeps its ID, a new one gets an ID no other string has, find and
 * lookup answer as the model does, and the stored mapping is the model's.
 */
class StringInternerPropertyTest {
    private static final Subspace S = new Subspace(Tuple.from("prop"));

    /** One step: intern a batch (op 0), find each (op 1), or look up IDs near known ones (op 2). */
    record Step(int op, List<byte[]> strings, int probe) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        // Short byte strings over a small alphabet, so batches repeat themselves and each other.
        Arbitrary<byte[]> string = Arbitraries.bytes().between((byte) 0, (byte) 3).array(byte[].class).ofMaxSize(3);
        Arbitrary<Step> step = net.jqwik.api.Combinators.combine(
                Arbitraries.integers().between(0, 2), string.list().ofMaxSize(12), Arbitraries.integers().between(0, 1000))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(25);
    }

    @Property(tries = 40)
    void behavesLikeAHashMap(@ForAll("steps") List<Step> steps, @ForAll("allocators") String allocator) {
        try (Database db = Strata.inMemory()) {
            StringInterner in = interner(allocator);
            Map<ByteBuffer, Long> model = new HashMap<>();
            Map<Long, ByteBuffer> reverse = new HashMap<>();
            for (Step step : steps) {
                switch (step.op()) {
                    case 0 -> {
                        long[] ids = in.internAll(db, step.strings()).join();
                        for (int i = 0; i < ids.length; i++) {
                            ByteBuffer s = ByteBuffer.wrap(step.strings().get(i));
                            Long known = model.get(s);
                            if (known != null) {
                                assertThat(ids[i]).isEqualTo(known);
                            } else {
                                assertThat(reverse).doesNotContainKey(ids[i]);
                                model.put(s, ids[i]);
                                reverse.put(ids[i], s);
                            }
                        }
                    }
                    case 1 -> {
                        List<OptionalLong> found = in.findAll(db, step.strings()).join();
                        for (int i = 0; i < found.size(); i++) {
                            Long known = model.get(ByteBuffer.wrap(step.strings().get(i)));
                            assertThat(found.get(i)).isEqualTo(known == null ? OptionalLong.empty() : OptionalLong.of(known));
                        }
                    }
                    default -> {
                        List<Long> ids = new ArrayList<>(reverse.keySet());
                        long probe = ids.isEmpty() ? step.probe() : ids.get(step.probe() % ids.size()) + (step.probe() % 3) - 1;
                        Optional<byte[]> got = in.lookup(db, probe).join();
                        ByteBuffer expected = reverse.get(probe);
                        assertThat(got.map(ByteBuffer::wrap)).isEqualTo(Optional.ofNullable(expected));
                    }
                }
            }
            Map<ByteBuffer, Long> stored = InternerChecks.assertBijection(db, S,
                    allocator.equals("versionstamp") ? new VersionstampIdAllocator() : null, model);
            assertThat(stored).isEqualTo(model);
        }
    }

    /**
     * Any Java strings, surrogates included: each either round-trips (valid Unicode) or is
     * rejected with IllegalArgumentException (an unpaired surrogate), and a rejected batch
     * writes nothing.
     */
    @Property(tries = 40)
    void javaStringsRoundTripOrAreRejected(@ForAll List<String> strings) {
        try (Database db = Strata.inMemory()) {
            StringInterner in = StringInterner.sharded(S, 32, 32, 0);
            boolean valid = strings.stream().allMatch(StringInternerPropertyTest::validUnicode);
            if (!valid) {
                assertThatThrownBy(() -> in.internAllStrings(db, strings)).isInstanceOf(IllegalArgumentException.class);
                assertThat(db.readAsync(tr -> tr.getRange(S.range()).asList()).join()).isEmpty();
                return;
            }
            long[] ids = in.internAllStrings(db, strings).join();
            for (int i = 0; i < ids.length; i++) {
                assertThat(in.lookupString(db, ids[i]).join()).contains(strings.get(i));
                assertThat(in.find(db, strings.get(i)).join()).isEqualTo(OptionalLong.of(ids[i]));
            }
        }
    }

    private static boolean validUnicode(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    @Provide
    Arbitrary<String> allocators() {
        return Arbitraries.of("sharded-32/32", "sharded-2/6", "counter", "hca", "versionstamp", "cached-counter");
    }

    private static StringInterner interner(String allocator) {
        return switch (allocator) {
            case "sharded-32/32" -> StringInterner.sharded(S, 32, 32, 0);
            case "sharded-2/6" -> StringInterner.sharded(S, 2, 6, 0); // 252 IDs for at most 85 strings: exhaustion moves on
            case "counter" -> new StringInterner(S, SingleCounterAllocator::new);
            case "hca" -> new StringInterner(S, HcaIdAllocator::new);
            case "versionstamp" -> StringInterner.withVersionstamps(S, new VersionstampIdAllocator(), 0);
            case "cached-counter" -> new StringInterner(S, SingleCounterAllocator::new, 16);
            default -> throw new IllegalArgumentException(allocator);
        };
    }
}
