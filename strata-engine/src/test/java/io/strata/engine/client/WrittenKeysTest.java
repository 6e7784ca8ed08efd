package io.strata.engine.client;

import io.strata.engine.util.ByteKeys;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link WrittenKeys} against a {@link TreeMap}, through growth, range removals and copies. */
class WrittenKeysTest {
    /** put (key), remove [key, end), or copy then go on with the copy; keys from a small alphabet so that they collide. */
    record Op(int kind, byte[] key, byte[] end, int value) {}

    @Provide
    Arbitrary<Op> ops() {
        Arbitrary<byte[]> keys = Arbitraries.bytes().between((byte) 0, (byte) 3).array(byte[].class).ofMaxSize(4);
        return Combinators.combine(Arbitraries.integers().between(0, 9), keys, keys, Arbitraries.integers())
                .as((kind, k, e, v) -> new Op(kind, k, e, v));
    }

    @Property(tries = 300)
    void behavesLikeASortedMap(@ForAll @Size(max = 400) List<@net.jqwik.api.From("ops") Op> ops) {
        WrittenKeys<Integer> keys = new WrittenKeys<>();
        TreeMap<byte[], Integer> model = new TreeMap<>(ByteKeys.COMPARATOR);
        boolean sortedViewTaken = false;
        for (Op op : ops) {
            if (op.kind() == 0) {
                keys.removeRange(op.key(), op.end());
                if (ByteKeys.compare(op.key(), op.end()) < 0) {
                    model.subMap(op.key(), true, op.end(), false).clear();
                }
                sortedViewTaken = true;
            } else if (op.kind() == 1) {
                WrittenKeys<Integer> copy = keys.copy(v -> v + 1);
                model.replaceAll((k, v) -> v + 1);
                keys = copy;
                sortedViewTaken = false;
            } else if (op.kind() == 2 && !sortedViewTaken) {
                assertThat(keys.sorted()).containsExactlyEntriesOf(model);
                sortedViewTaken = true;
            } else {
                keys.put(op.key(), op.value());
                model.put(op.key(), op.value());
            }
            assertThat(keys.get(op.key())).isEqualTo(model.get(op.key()));
            assertThat(keys.isEmpty()).isEqualTo(model.isEmpty());
        }
        for (Map.Entry<byte[], Integer> e : model.entrySet()) {
            assertThat(keys.get(e.getKey())).isEqualTo(e.getValue());
        }
        assertThat(keys.sorted()).containsExactlyEntriesOf(model);
    }
}
