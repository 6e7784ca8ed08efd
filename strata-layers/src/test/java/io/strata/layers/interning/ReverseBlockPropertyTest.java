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

/**
 * Random batches on sharded sequences of 4 counter bits (15 IDs a sequence, so a batch's run
 * breaks wherever a sequence is exhausted and the batch continues in another), against a
 * {@code HashMap} model: every interned string looks up to itself, alone and in batches,
 * inside the interning transaction and after it; any other ID looks up to nothing or to what
 * the model says.
 */
class ReverseBlockPropertyTest {
    private static final Subspace S = new Subspace(Tuple.from("block-prop"));

    /** A transaction of one or more interning calls, each a batch, then probes of other IDs. */
    record Step(List<List<byte[]>> calls, List<Long> probes) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<byte[]> string = Arbitraries.bytes().between((byte) 0, (byte) 7).array(byte[].class).ofMaxSize(4);
        Arbitrary<List<byte[]>> batch = string.list().ofMinSize(1).ofMaxSize(40);
        Arbitrary<Long> probe = Arbitraries.longs().between(0, 1L << 20); // the whole 16 + 4 bit ID space
        return net.jqwik.api.Combinators.combine(batch.list().ofMinSize(1).ofMaxSize(3), probe.list().ofMaxSize(8))
                .as(Step::new).list().ofMinSize(1).ofMaxSize(12);
    }

    @Property(tries = 30)
    void everyStringLooksUpToItselfAndNoOtherIdNamesAnything(@ForAll("steps") List<Step> steps) {
        try (Database db = Strata.inMemory()) {
            StringInterner in = StringInterner.sharded(S, 16, 4, 0);
            Map<ByteBuffer, Long> model = new HashMap<>();
            Map<Long, ByteBuffer> reverse = new HashMap<>();
            for (Step step : steps) {
                List<long[]> told = db.run(tr -> {
                    List<long[]> out = new ArrayList<>();
                    for (List<byte[]> call : step.calls()) {
                        long[] ids = in.internAll(tr, call).join();
                        out.add(ids);
                        // Read-your-writes: the blocks just written answer in the same transaction.
                        List<Optional<byte[]>> back = in.lookupAll(tr, ids).join();
                        for (int i = 0; i < ids.length; i++) {
                            assertThat(back.get(i).map(ByteBuffer::wrap)).contains(ByteBuffer.wrap(call.get(i)));
                            assertThat(in.lookup(tr, ids[i]).join().map(ByteBuffer::wrap)).contains(ByteBuffer.wrap(call.get(i)));
                        }
                    }
                    return out;
                });
                for (int c = 0; c < told.size(); c++) {
                    long[] ids = told.get(c);
                    for (int i = 0; i < ids.length; i++) {
                        ByteBuffer s = ByteBuffer.wrap(step.calls().get(c).get(i));
                        Long known = model.putIfAbsent(s, ids[i]);
                        if (known == null) {
                            assertThat(reverse.put(ids[i], s)).as("an ID given twice").isNull();
                        } else {
                            assertThat(ids[i]).isEqualTo(known);
                        }
                    }
                }
                for (long probe : step.probes()) {
                    ByteBuffer expected = reverse.get(probe);
                    assertThat(in.lookup(db, probe).join().map(ByteBuffer::wrap)).isEqualTo(Optional.ofNullable(expected));
                }
            }
            // Every string: find then lookup, one by one and as one batch with neighbours of each ID.
            List<Long> probes = new ArrayList<>();
            for (Map.Entry<ByteBuffer, Long> e : model.entrySet()) {
                OptionalLong id = in.findAll(db, List.of(e.getKey().array())).join().get(0);
                assertThat(id).isEqualTo(OptionalLong.of(e.getValue()));
                assertThat(in.lookup(db, id.getAsLong()).join().map(ByteBuffer::wrap)).contains(e.getKey());
                for (long d = -2; d <= 2; d++) {
                    probes.add(e.getValue() + d);
                }
            }
            long[] all = probes.stream().mapToLong(Long::longValue).toArray();
            List<Optional<byte[]>> found = db.readAsync(tr -> in.lookupAll(tr, all)).join();
            for (int i = 0; i < all.length; i++) {
                assertThat(found.get(i).map(ByteBuffer::wrap)).as("ID %d", all[i]).isEqualTo(Optional.ofNullable(reverse.get(all[i])));
            }
            assertThat(InternerChecks.assertBijection(db, S, null, model)).isEqualTo(model);
        }
    }
}
