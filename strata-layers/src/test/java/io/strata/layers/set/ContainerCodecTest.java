package io.strata.layers.set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.ArrayContainer;
import org.roaringbitmap.BitmapContainer;
import org.roaringbitmap.Container;
import org.roaringbitmap.RunContainer;

import java.util.HexFormat;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The container bytes documented in {@link ContainerCodec}: worked examples, round trips, refusals. */
class ContainerCodecTest {
    private static Container of(int... lows) {
        Container c = new ArrayContainer();
        for (int low : lows) {
            c = c.add((char) low);
        }
        return c;
    }

    private static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").withUpperCase().formatHex(bytes);
    }

    @Test
    void workedExamplesOfTheJavadoc() {
        assertThat(hex(ContainerCodec.encode(of(5, 6, 7, 1000)))).isEqualTo("01 05 00 06 00 07 00 E8 03");
        assertThat(hex(ContainerCodec.encode(Container.rangeOfOnes(0, 65536)))).isEqualTo("03 00 00 FF FF");
        assertThat(hex(ContainerCodec.encode(of(42)))).isEqualTo("01 2A 00");
        Container scattered = new ArrayContainer();
        for (int i = 0; i < 5000; i++) {
            scattered = scattered.add((char) (i * 13));
        }
        byte[] bitmap = ContainerCodec.encode(scattered);
        assertThat(bitmap).hasSize(8193);
        assertThat(bitmap[0]).isEqualTo(ContainerCodec.BITMAP);
        assertThat(bitmap[1]).isEqualTo((byte) 0x01); // member 0 is bit 0 of word 0, little-endian
    }

    @Test
    void eachRepresentationRoundTrips() {
        Container array = of(0, 1, 65535);
        Container run = Container.rangeOfOnes(100, 30000);
        Container bitmap = new BitmapContainer();
        for (int i = 0; i < 65536; i += 3) {
            bitmap = bitmap.add((char) i);
        }
        for (Container c : new Container[] {array, run, bitmap}) {
            Container back = ContainerCodec.decode(ContainerCodec.encode(c));
            assertThat(back).isEqualTo(c);
            assertThat(back.getCardinality()).isEqualTo(c.getCardinality());
        }
        assertThat(ContainerCodec.decode(ContainerCodec.encode(run))).isInstanceOf(RunContainer.class);
        assertThat(ContainerCodec.decode(ContainerCodec.encode(bitmap))).isInstanceOf(BitmapContainer.class);
    }

    @Property(tries = 200)
    void decodeContainsCardinalityAndForEachAgreeWithTheContainer(@ForAll("containers") Set<Integer> lows,
                                                            @ForAll("lows") int probe) {
        Container c = of(lows.stream().mapToInt(Integer::intValue).toArray());
        byte[] bytes = ContainerCodec.encode(c);
        assertThat(ContainerCodec.decode(bytes)).isEqualTo(c);
        assertThat(ContainerCodec.cardinality(bytes)).isEqualTo(lows.size());
        assertThat(ContainerCodec.contains(bytes, (char) probe)).isEqualTo(lows.contains(probe));
        java.util.List<Integer> visited = new java.util.ArrayList<>();
        ContainerCodec.forEach(bytes, visited::add);
        assertThat(visited).isEqualTo(lows.stream().sorted().toList());
        for (int low : lows) {
            assertThat(ContainerCodec.contains(bytes, (char) low)).isTrue();
        }
    }

    @Provide
    Arbitrary<Integer> lows() {
        return Arbitraries.oneOf(Arbitraries.integers().between(0, 65535), Arbitraries.of(0, 1, 63, 64, 65534, 65535));
    }

    /** Sparse sets (arrays), dense ones (bitmaps) and contiguous stretches (runs). */
    @Provide
    Arbitrary<Set<Integer>> containers() {
        Arbitrary<Set<Integer>> sparse = lows().set().ofMinSize(1).ofMaxSize(50);
        Arbitrary<Set<Integer>> dense = Arbitraries.integers().between(0, 8191).set().ofMinSize(4200).ofMaxSize(5000);
        Arbitrary<Set<Integer>> runs = Arbitraries.integers().between(0, 65000).flatMap(start ->
                Arbitraries.integers().between(1, 535).map(length -> {
                    Set<Integer> s = new java.util.HashSet<>();
                    for (int i = start; i < start + length; i++) {
                        s.add(i);
                    }
                    s.add(65535);
                    return s;
                }));
        return Arbitraries.oneOf(sparse, dense, runs);
    }

    @Test
    void refusesBytesItDidNotWrite() {
        for (byte[] bad : new byte[][] {{}, {9, 1, 0}, {ContainerCodec.ARRAY}, {ContainerCodec.ARRAY, 1},
                {ContainerCodec.BITMAP, 0, 0}, {ContainerCodec.RUN, 0, 0}}) {
            assertThatThrownBy(() -> ContainerCodec.decode(bad)).isInstanceOf(IllegalStateException.class);
        }
        assertThatThrownBy(() -> ContainerCodec.encode(new ArrayContainer())).isInstanceOf(IllegalArgumentException.class);
    }
}
