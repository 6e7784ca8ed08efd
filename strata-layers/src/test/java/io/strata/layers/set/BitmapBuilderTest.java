package io.strata.layers.set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.roaringbitmap.ArrayContainer;
import org.roaringbitmap.Container;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both paths of the builder (scattered members, added one by one; dense containers, copied
 * in) give what adding the members one by one gives. The container-at-a-time build of a {@link Roaring64Bitmap} equals adding the members one by
 * one: guards the reliance on {@code Roaring64Bitmap}'s serialized form being
 * {@code HighLowContainer}'s.
 */
class BitmapBuilderTest {
    @Property(tries = 150)
    void scatteredMembersEqualTheMemberByMemberBuild(@ForAll("members") List<Long> members) {
        check(members);
    }

    /** Over 400 members in at most 11 containers: far more than 8 a container, the copy path. */
    @Property(tries = 150)
    void denseContainersEqualTheMemberByMemberBuild(@ForAll("dense") List<Long> members, @ForAll long base) {
        check(members.stream().map(m -> (base & ~0xFFFFL) + m).toList());
    }

    @Provide
    Arbitrary<List<Long>> dense() {
        return Arbitraries.longs().between(0, 10 * 65536 - 1).list().ofMinSize(50 * 8 + 1).ofMaxSize(2000);
    }

    private static void check(List<Long> members) {
        Roaring64Bitmap expected = new Roaring64Bitmap();
        TreeMap<Long, Container> byHigh = new TreeMap<>(); // high parts are below 2^48: signed order is fine
        for (long m : members) {
            expected.addLong(m);
            byHigh.merge(m >>> 16, new ArrayContainer().add((char) m), Container::or);
        }
        BitmapBuilder builder = new BitmapBuilder();
        boolean encoded = false;
        for (Map.Entry<Long, Container> e : byHigh.entrySet()) {
            if (encoded) { // alternate the two ways in, so both meet both paths
                builder.putEncoded(e.getKey(), ContainerCodec.encode(e.getValue()));
            } else {
                builder.put(e.getKey(), e.getValue());
            }
            encoded = !encoded;
        }
        Roaring64Bitmap built = builder.build();
        assertThat(built.getLongCardinality()).isEqualTo(expected.getLongCardinality());
        assertThat(built.toArray()).containsExactly(expected.toArray());
        assertThat(built).isEqualTo(expected);
        for (long m : members) {
            assertThat(built.contains(m)).isTrue();
        }
    }

    @Provide
    Arbitrary<List<Long>> members() {
        return Arbitraries.oneOf(
                Arbitraries.longs(),
                Arbitraries.of(0L, 1L, 65535L, 65536L, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -65536L),
                Arbitraries.longs().between(0, 300_000)).list().ofMaxSize(300);
    }
}
