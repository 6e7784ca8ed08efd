package io.strata.redis.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Redis 7.0's long double arithmetic and printing; the expected strings are real Redis's replies. */
class LongDoubleTest {
    private static LongDouble parse(String s) {
        return LongDouble.parse(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String sum(String a, String b) {
        return parse(a).plus(parse(b)).toHumanString();
    }

    @Test
    void sumsShowTheSixtyFourBitSignificand() {
        assertThat(sum("0", "1000.1")).isEqualTo("1000.09999999999999998");
        assertThat(sum("0", "123456789.123456789")).isEqualTo("123456789.12345678899873747");
        assertThat(sum("1e20", "0.1")).isEqualTo("100000000000000000000");
        assertThat(sum("18446744073709551615", "1")).isEqualTo("18446744073709551616");
        assertThat(sum("0", "9007199254740993.5")).isEqualTo("9007199254740993.5");
    }

    @Test
    void smallDecimalsPrintAsTyped() {
        assertThat(sum("1.23", "0.77")).isEqualTo("2");
        assertThat(sum("2", "-0.1")).isEqualTo("1.9");
        assertThat(sum("0.1", "0.2")).isEqualTo("0.3");
        assertThat(sum("0", "-0.000000000000000001")).isEqualTo("0");
        assertThat(sum("5", "-5")).isEqualTo("0");
    }

    @Test
    void printingRoundsTiesToEven() {
        assertThat(sum("0", "0.000003814697265625")).isEqualTo("0.00000381469726562");
        assertThat(sum("0", "0.000011444091796875")).isEqualTo("0.00001144409179688");
    }

    @Test
    void hugeValuesPrintEveryDigit() {
        assertThat(sum("0", "1e300")).startsWith("10000000000000000000089973240795591938705239442732907479382600823212656465961809")
                .hasSize(301);
        assertThat(sum("0", "1e400")).hasSize(401);
    }

    @Test
    void readsWhatStrtoldReads() {
        assertThat(parse("0x10").toHumanString()).isEqualTo("16");
        assertThat(parse("0x1.8p1").toHumanString()).isEqualTo("3");
        assertThat(parse(".5").toHumanString()).isEqualTo("0.5");
        assertThat(parse("5.").toHumanString()).isEqualTo("5");
        assertThat(parse("+.5e-1").toHumanString()).isEqualTo("0.05");
        assertThat(parse("1.5E3").toHumanString()).isEqualTo("1500");
        assertThat(parse("-Infinity").isInfinite()).isTrue();
        assertThat(parse("inf").isInfinite()).isTrue();
    }

    @Test
    void refusesWhatString2ldRefuses() {
        for (String bad : new String[] {"", " 1", "1 ", "1e", "0x", "nan", "-nan", "--1", "1\u00002", "1d", "abc", "1e5000", "1e-5000", "infx"}) {
            assertThat(parse(bad)).as(bad).isNull();
        }
        assertThat(parse("1".repeat(LongDouble.MAX_CHARS))).isNull();
    }

    @Test
    void overflowIsInfinite() {
        LongDouble big = parse("1e4932");
        assertThat(big.isInfinite()).isFalse();
        assertThat(big.plus(big).isInfinite()).isTrue();
        assertThat(parse("inf").plus(parse("-inf"))).isNull();
    }
}
