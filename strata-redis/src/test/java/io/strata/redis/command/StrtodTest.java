package io.strata.redis.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Example;

/**
 * {@link Strtod} against glibc's {@code strtod} (4,000 recorded answers, made by
 * {@code src/test/resources/strtod/generate.py}) and against Java's own printing of doubles as
 * the model for numbers it can write; then Redis's two uses of it, {@code string2d} and
 * {@code zslParseRange}'s bound.
 */
class StrtodTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Example
    void agreesWithGlibcOnRecordedInputs() throws IOException {
        int checked = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                StrtodTest.class.getResourceAsStream("/strtod/glibc-strtod.txt"), StandardCharsets.US_ASCII))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(" ", -1);
                byte[] input = HexFormat.of().parseHex(f[0]);
                double expected = Double.longBitsToDouble(Long.parseLong(f[1]));
                int end = Integer.parseInt(f[2]);
                // glibc also sets ERANGE for inexact subnormals; Strtod reports only what Redis looks at.
                boolean erange = f[3].equals("1") && (Double.isInfinite(expected) || expected == 0);
                Strtod.Result r = Strtod.parse(input, 0);
                String what = new String(input, StandardCharsets.ISO_8859_1);
                assertThat(r.end()).as("end of %s", what).isEqualTo(end);
                if (Double.isNaN(expected)) {
                    assertThat(r.value()).as(what).isNaN();
                } else {
                    assertThat(Double.doubleToRawLongBits(r.value())).as("value of %s: %s", what, r.value())
                            .isEqualTo(Double.doubleToRawLongBits(expected));
                }
                assertThat(r.erange()).as("ERANGE of %s", what).isEqualTo(erange);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(4000);
    }

    @Property
    void readsWhatJavaPrints(@ForAll double d) {
        for (String text : new String[] {Double.toString(d), Double.toHexString(d), String.format(java.util.Locale.ROOT, "%.17g", d)}) {
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            Strtod.Result r = Strtod.parse(bytes(text), 0);
            assertThat(r.value()).as(text).isEqualTo(d);
            assertThat(r.end()).as(text).isEqualTo(text.length());
            assertThat(r.erange()).isFalse();
            assertThat(Strtod.string2d(bytes(text))).isEqualTo(d);
        }
    }

    @Property
    void stopsBeforeWhatIsNotPartOfTheNumber(@ForAll double d, @ForAll("tails") String tail) {
        String number = Double.isNaN(d) ? "nan" : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf") : Double.toString(d);
        Strtod.Result r = Strtod.parse(bytes(number + tail), 0);
        assertThat(r.end()).isEqualTo(number.length());
        if (!Double.isNaN(d)) {
            assertThat(r.value()).isEqualTo(d);
        }
        assertThat(Strtod.string2d(bytes(number + tail))).isNull();
        Double bound = Strtod.rangeBound(bytes(number + tail), 0);
        if (tail.charAt(0) == 0 && !Double.isNaN(d)) {
            assertThat(bound).isEqualTo(d);
        } else {
            assertThat(bound).isNull();
        }
    }

    @Provide
    Arbitrary<String> tails() {
        // Characters that cannot continue any number Java prints (Java never prints "e" or "p" alone).
        return Arbitraries.strings().withChars(" \t\u0000xyz()!,;").ofMinLength(1).ofMaxLength(4);
    }

    @Property
    void skipsLeadingSpaceButString2dRefusesIt(@ForAll("spaces") String space, @ForAll double d) {
        String text = Double.toString(d);
        Strtod.Result r = Strtod.parse(bytes(space + text), 0);
        if (!Double.isNaN(d)) {
            assertThat(r.value()).isEqualTo(d);
            assertThat(Strtod.rangeBound(bytes(space + text), 0)).isEqualTo(d);
        }
        assertThat(r.end()).isEqualTo(space.length() + text.length());
        assertThat(Strtod.string2d(bytes(space + text))).isNull();
    }

    @Provide
    Arbitrary<String> spaces() {
        return Arbitraries.strings().withChars(" \t\n\u000b\f\r").ofMinLength(1).ofMaxLength(3);
    }

    @Example
    void string2dTakesHexInfinityAndSubnormals() {
        assertThat(Strtod.string2d(bytes("0x10"))).isEqualTo(16.0);
        assertThat(Strtod.string2d(bytes("0x1F"))).isEqualTo(31.0);
        assertThat(Strtod.string2d(bytes("0x1p3"))).isEqualTo(8.0);
        assertThat(Strtod.string2d(bytes("-0x1.8p1"))).isEqualTo(-3.0);
        assertThat(Strtod.string2d(bytes("InFiNiTy"))).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Strtod.string2d(bytes("-inf"))).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Strtod.string2d(bytes("+INF"))).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Strtod.string2d(bytes("4.9e-324"))).isEqualTo(Double.MIN_VALUE);
        assertThat(Strtod.string2d(bytes("1e-310"))).isEqualTo(1e-310);
        assertThat(Strtod.string2d(bytes("0e-400"))).isEqualTo(0.0);
        assertThat(Strtod.string2d(bytes("1.7976931348623157e308"))).isEqualTo(Double.MAX_VALUE);
    }

    @Example
    void string2dRefusesWhatRedisRefuses() {
        for (String bad : new String[] {"", " 1", "1 ", "1\u0000", "\u00001", "1e400", "-1e309", "1e-400", "0x1p1024", "0x1p-1080",
                "nan", "-nan", "nan()", "1d", "1f", "0x", "0x1p", "1e", ".", "-", "inf ", "infinit", "(1"}) {
            assertThat(Strtod.string2d(bytes(bad))).as("%s", bad).isNull();
        }
    }

    @Example
    void rangeBoundsAreLax() {
        assertThat(Strtod.rangeBound(bytes(""), 0)).isEqualTo(0.0);
        assertThat(Strtod.rangeBound(bytes("("), 1)).isEqualTo(0.0);
        assertThat(Strtod.rangeBound(bytes(" 1"), 0)).isEqualTo(1.0);
        assertThat(Strtod.rangeBound(bytes("(\t1"), 1)).isEqualTo(1.0);
        assertThat(Strtod.rangeBound(bytes("\u00001"), 0)).isEqualTo(0.0);
        assertThat(Strtod.rangeBound(bytes("1\u0000x"), 0)).isEqualTo(1.0);
        assertThat(Strtod.rangeBound(bytes("1e400"), 0)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Strtod.rangeBound(bytes("-1e400"), 0)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Strtod.rangeBound(bytes("1e-400"), 0)).isEqualTo(0.0);
        assertThat(Strtod.rangeBound(bytes("0x10"), 0)).isEqualTo(16.0);
        assertThat(Strtod.rangeBound(bytes("   "), 0)).isNull();
        assertThat(Strtod.rangeBound(bytes("1 "), 0)).isNull();
        assertThat(Strtod.rangeBound(bytes("nan"), 0)).isNull();
        assertThat(Strtod.rangeBound(bytes("x"), 0)).isNull();
    }
}
