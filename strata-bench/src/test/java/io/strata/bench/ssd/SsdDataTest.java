package io.strata.bench.ssd;

import io.strata.bench.peer.StrataPeer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The ssd scenario's data and its target arithmetic. */
class SsdDataTest {
    @Test
    void keysAreDistinctSixteenBytesBelowTheEndAndOutsideTheSystemKeys() {
        SsdData data = new SsdData(10_000, 100);
        Set<String> seen = new HashSet<>();
        for (long i = 0; i < data.count(); i++) {
            byte[] k = data.key(i);
            assertThat(k).hasSize(SsdData.KEY_BYTES);
            assertThat(k[0]).isEqualTo((byte) 'k');
            assertThat(Arrays.compareUnsigned(k, SsdData.END)).isNegative();
            seen.add(Arrays.toString(k));
        }
        assertThat(seen).hasSize(10_000);
    }

    @Test
    void valuesAreReproducibleAndCheckable() {
        SsdData data = new SsdData(100, 1000);
        assertThat(data.value(7)).hasSize(1000).isEqualTo(data.value(7)).isNotEqualTo(data.value(8));
        assertThat(data.isValueOf(7, data.value(7))).isTrue();
        assertThat(data.isValueOf(7, data.value(8))).isFalse();
        assertThat(data.isValueOf(7, null)).isFalse();
        assertThat(SsdData.ofBytes(1016L * 1000, 1000).count()).isEqualTo(1000);
    }

    @Test
    void targetsCompareStrataWithRocksDbAndSsdWithMemory() {
        List<SsdResult> results = List.of(
                result("load", SsdTarget.STRATA, 90), result("load", SsdTarget.ROCKSDB, 100),
                result("get", SsdTarget.STRATA, 70), result("get", SsdTarget.ROCKSDB, 100),
                result("recovery", SsdTarget.STRATA, 1.5),
                result("window-write", StrataPeer.SSD_NAME, 80), result("window-write", StrataPeer.FSYNC_NAME, 100));
        List<SsdTargets.Check> checks = SsdTargets.check(results);
        assertThat(checks).extracting(SsdTargets.Check::figure)
                .containsExactly("load strata/rocksdb", "get strata/rocksdb", "recovery strata (s)", "window-write ssd/memory");
        assertThat(checks).extracting(SsdTargets.Check::met).containsExactly(true, false, true, true);
    }

    private static SsdResult result(String phase, String engine, double rate) {
        return new SsdResult(phase, engine, 1, 1, 1, 0, rate, "x", null, "");
    }
}
