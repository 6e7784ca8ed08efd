package io.strata.bench.sets;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The benchmark's member draws: distinct, of the promised spread, reproducible; and the median. */
class SetShapeTest {
    @Test
    void denseMembersAreDistinctAndBelowFourN() {
        long[] m = SetShape.DENSE.members(10_000, 7);
        assertThat(Arrays.stream(m).distinct().count()).isEqualTo(10_000);
        assertThat(Arrays.stream(m).allMatch(x -> x >= 0 && x < 40_000)).isTrue();
        assertThat(m).isEqualTo(SetShape.DENSE.members(10_000, 7));
        assertThat(m).isNotEqualTo(SetShape.DENSE.members(10_000, 8));
    }

    @Test
    void sparseMembersFallInSeparateContainersAndUseTheSignBit() {
        long[] m = SetShape.SPARSE.members(10_000, 7);
        assertThat(Arrays.stream(m).map(x -> x >>> 16).distinct().count()).isGreaterThan(9_990);
        assertThat(Arrays.stream(m).anyMatch(x -> x < 0)).isTrue(); // unsigned values of 2^63 and above
    }

    @Test
    void shapesByLabelAndTheMedian() {
        assertThat(SetShape.of("sparse")).isEqualTo(SetShape.SPARSE);
        assertThatThrownBy(() -> SetShape.of("lumpy")).hasMessageContaining("unknown shape: lumpy");
        assertThat(SetsScenario.median(new double[] {5, 1, 3})).isEqualTo(3);
        assertThat(SetsScenario.median(new double[] {4, 1, 3, 100})).isEqualTo(3.5);
    }
}
