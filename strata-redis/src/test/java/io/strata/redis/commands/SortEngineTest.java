package io.strata.redis.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SORT's ordering, LIMIT, patterns and numeric reading without a database (the collection
 * types that feed SORT over TCP are not on this branch yet); expected results are Redis 7.0's.
 */
class SortEngineTest {
    private static List<byte[]> bytes(String... s) {
        List<byte[]> out = new ArrayList<>();
        for (String x : s) {
            out.add(x == null ? null : x.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static List<String> strings(List<byte[]> b) {
        List<String> out = new ArrayList<>();
        for (byte[] x : b) {
            out.add(new String(x, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static SortOptions options(boolean desc, boolean alpha, long offset, long count, String by) {
        return new SortOptions(desc, alpha, offset, count, by == null ? null : by.getBytes(StandardCharsets.UTF_8), List.of(), null);
    }

    private static List<String> sort(List<byte[]> elements, boolean keepsOrder, SortOptions o, List<byte[]> weights) {
        return strings(SortEngine.order(elements, keepsOrder, o, weights));
    }

    @Test
    void numericAscendingDescendingWithTiesByElement() {
        List<byte[]> e = bytes("10", "2", "-1.5", "1e1", "3");
        assertThat(sort(e, true, options(false, false, 0, -1, null), null)).containsExactly("-1.5", "2", "3", "10", "1e1");
        assertThat(sort(e, true, options(true, false, 0, -1, null), null)).containsExactly("1e1", "10", "3", "2", "-1.5");
    }

    @Test
    void alphaComparesBytes() {
        List<byte[]> e = bytes("b", "a", "B", "ab");
        assertThat(sort(e, true, options(false, true, 0, -1, null), null)).containsExactly("B", "a", "ab", "b");
    }

    @Test
    void limitIsClampedAsRedisClampsIt() {
        List<byte[]> e = bytes("1", "2", "3", "4", "5");
        assertThat(sort(e, true, options(false, false, 1, 2, null), null)).containsExactly("2", "3");
        assertThat(sort(e, true, options(false, false, -5, 2, null), null)).containsExactly("1", "2");
        assertThat(sort(e, true, options(false, false, 3, -1, null), null)).containsExactly("4", "5");
        assertThat(sort(e, true, options(false, false, 3, 100, null), null)).containsExactly("4", "5");
        assertThat(sort(e, true, options(false, false, 10, 2, null), null)).isEmpty();
        assertThat(sort(e, true, options(false, false, 0, 0, null), null)).isEmpty();
        assertThat(sort(bytes(), true, options(false, false, 0, -1, null), null)).isEmpty();
    }

    @Test
    void byWeightsWithMissingOnes() {
        List<byte[]> e = bytes("a", "b", "c");
        assertThat(sort(e, false, options(false, false, 0, -1, "w_*"), bytes("3", null, "1")))
                .containsExactly("b", "c", "a");
        assertThat(sort(e, false, options(false, true, 0, -1, "w_*"), bytes("z", null, "y")))
                .containsExactly("b", "c", "a");
    }

    @Test
    void byAConstantKeepsTheSourceOrder() {
        List<byte[]> e = bytes("3", "1", "2");
        assertThat(sort(e, true, options(false, false, 0, -1, "nosort"), null)).containsExactly("3", "1", "2");
        assertThat(sort(e, true, options(true, false, 0, 2, "nosort"), null)).containsExactly("2", "1");
        // A set has no order to reverse.
        assertThat(sort(e, false, options(true, false, 0, -1, "nosort"), null)).containsExactly("3", "1", "2");
    }

    @Test
    void aValueThatIsNotANumberIsAnError() {
        assertThatThrownBy(() -> sort(bytes("1", "x"), true, options(false, false, 0, -1, null), null))
                .hasMessage("ERR One or more scores can't be converted into double");
        // Even when LIMIT leaves it out.
        assertThatThrownBy(() -> sort(bytes("1", "x"), true, options(false, false, 0, 1, null), null))
                .hasMessage("ERR One or more scores can't be converted into double");
    }

    @Test
    void scoresAreReadAsStrtodReadsThem() {
        assertThat(SortScore.parse(bytes("").get(0))).isEqualTo(0.0);
        assertThat(SortScore.parse(bytes("  12").get(0))).isEqualTo(12.0);
        assertThat(SortScore.parse(bytes("0x10").get(0))).isEqualTo(16.0);
        assertThat(SortScore.parse(bytes("-inf").get(0))).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(SortScore.parse(bytes(".5e1").get(0))).isEqualTo(5.0);
        assertThat(SortScore.parse(bytes("12 ").get(0))).isNull();
        assertThat(SortScore.parse(bytes("   ").get(0))).isNull();
        assertThat(SortScore.parse(bytes("nan").get(0))).isNull();
        assertThat(SortScore.parse(bytes("1e400").get(0))).isNull();
        assertThat(SortScore.parse(bytes("1e-400").get(0))).isNull();
        assertThat(SortScore.parse(bytes("0e-400").get(0))).isEqualTo(0.0);
        assertThat(SortScore.parse(bytes("1d").get(0))).isNull();
        // strtod stops at a NUL and sortCommand then looks only at the byte it stopped on.
        assertThat(SortScore.parse(new byte[] {0})).isEqualTo(0.0);
        assertThat(SortScore.parse(new byte[] {'1', 0, 'x'})).isEqualTo(1.0);
        assertThat(SortScore.parse(new byte[] {'1', ' ', 0})).isNull();
    }

    @Test
    void patternsNameAKeyOrAHashField() {
        byte[] el = bytes("42").get(0);
        assertThat(SortPattern.resolve(bytes("#").get(0), el)).isSameAs(SortPattern.ELEMENT);
        assertThat(SortPattern.resolve(bytes("nostar").get(0), el)).isNull();
        SortPattern key = SortPattern.resolve(bytes("w_*_x").get(0), el);
        assertThat(new String(key.key(), StandardCharsets.UTF_8)).isEqualTo("w_42_x");
        assertThat(key.field()).isNull();
        SortPattern field = SortPattern.resolve(bytes("h_*->name").get(0), el);
        assertThat(new String(field.key(), StandardCharsets.UTF_8)).isEqualTo("h_42");
        assertThat(new String(field.field(), StandardCharsets.UTF_8)).isEqualTo("name");
        // An arrow with no field after it is part of the key; one before the star does not count.
        assertThat(new String(SortPattern.resolve(bytes("h_*->").get(0), el).key(), StandardCharsets.UTF_8)).isEqualTo("h_42->");
        SortPattern early = SortPattern.resolve(bytes("a->b*").get(0), el);
        assertThat(new String(early.key(), StandardCharsets.UTF_8)).isEqualTo("a->b42");
        assertThat(early.field()).isNull();
        assertThat(Arrays.equals(SortPattern.resolve(bytes("*").get(0), el).key(), el)).isTrue();
    }
}
