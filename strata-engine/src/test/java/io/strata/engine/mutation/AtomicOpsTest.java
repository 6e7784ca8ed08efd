package io.strata.engine.mutation;

import static io.strata.engine.mutation.AtomicOps.ADD;
import static io.strata.engine.mutation.AtomicOps.APPEND_IF_FITS;
import static io.strata.engine.mutation.AtomicOps.BIT_AND;
import static io.strata.engine.mutation.AtomicOps.BIT_OR;
import static io.strata.engine.mutation.AtomicOps.BIT_XOR;
import static io.strata.engine.mutation.AtomicOps.BYTE_MAX;
import static io.strata.engine.mutation.AtomicOps.BYTE_MIN;
import static io.strata.engine.mutation.AtomicOps.COMPARE_AND_CLEAR;
import static io.strata.engine.mutation.AtomicOps.MAX;
import static io.strata.engine.mutation.AtomicOps.MIN;
import static io.strata.engine.mutation.AtomicOps.apply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.MutationType;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Worked byte examples for every atomic op, checked by hand against FoundationDB 7.3's
 * {@code fdbclient/include/fdbclient/Atomic.h}, plus jqwik properties comparing the integer ops
 * with {@link BigInteger} arithmetic.
 */
class AtomicOpsTest {

    /** Bytes from a hex string; spaces are ignored. {@code hex("")} is the empty value. */
    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] le64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    // ---------------------------------------------------------------------------------------
    // Opcodes
    // ---------------------------------------------------------------------------------------

    @Nested
    class Codes {

        @Test
        @SuppressWarnings("deprecation")
        void constantsMatchTheJavaBindingsMutationTypeCodes() {
            assertThat(ADD).isEqualTo(MutationType.ADD.code()).isEqualTo(2);
            assertThat(BIT_AND).isEqualTo(MutationType.BIT_AND.code()).isEqualTo(MutationType.AND.code()).isEqualTo(6);
            assertThat(BIT_OR).isEqualTo(MutationType.BIT_OR.code()).isEqualTo(MutationType.OR.code()).isEqualTo(7);
            assertThat(BIT_XOR).isEqualTo(MutationType.BIT_XOR.code()).isEqualTo(MutationType.XOR.code()).isEqualTo(8);
            assertThat(APPEND_IF_FITS).isEqualTo(MutationType.APPEND_IF_FITS.code()).isEqualTo(9);
            assertThat(MAX).isEqualTo(MutationType.MAX.code()).isEqualTo(12);
            assertThat(MIN).isEqualTo(MutationType.MIN.code()).isEqualTo(13);
            assertThat(AtomicOps.SET_VERSIONSTAMPED_KEY).isEqualTo(MutationType.SET_VERSIONSTAMPED_KEY.code()).isEqualTo(14);
            assertThat(AtomicOps.SET_VERSIONSTAMPED_VALUE).isEqualTo(MutationType.SET_VERSIONSTAMPED_VALUE.code()).isEqualTo(15);
            assertThat(BYTE_MIN).isEqualTo(MutationType.BYTE_MIN.code()).isEqualTo(16);
            assertThat(BYTE_MAX).isEqualTo(MutationType.BYTE_MAX.code()).isEqualTo(17);
            assertThat(COMPARE_AND_CLEAR).isEqualTo(MutationType.COMPARE_AND_CLEAR.code()).isEqualTo(20);
        }

        @Test
        void everyBindingMutationTypeIsEitherAnAtomicOpOrAVersionstampOp() {
            for (MutationType type : MutationType.values()) {
                boolean versionstamp = type == MutationType.SET_VERSIONSTAMPED_KEY
                        || type == MutationType.SET_VERSIONSTAMPED_VALUE;
                assertThat(AtomicOps.isAtomicOp(type.code())).as(type.name()).isEqualTo(!versionstamp);
                assertThat(AtomicOps.isVersionstampOp(type.code())).as(type.name()).isEqualTo(versionstamp);
            }
        }

        @ParameterizedTest
        @ValueSource(ints = {-1, 0, 1, 3, 4, 5, 10, 11, 14, 15, 18, 19, 21, 255})
        void otherCodesAreNotAtomicOpsAndApplyRejectsThem(int code) {
            assertThat(AtomicOps.isAtomicOp(code)).isFalse();
            assertThatThrownBy(() -> apply(code, hex("01"), hex("01")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(Integer.toString(code));
        }

        @Test
        void versionstampCodesPointToVersionstamps() {
            assertThatThrownBy(() -> apply(14, null, hex("00")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Versionstamps");
        }

        @Test
        void onlyCompareAndClearCanClear() {
            for (MutationType type : MutationType.values()) {
                assertThat(AtomicOps.canClear(type.code())).as(type.name())
                        .isEqualTo(type == MutationType.COMPARE_AND_CLEAR);
            }
        }

        @Test
        void nullParamIsRejected() {
            assertThatNullPointerException().isThrownBy(() -> apply(ADD, hex("01"), null));
        }
    }

    // ---------------------------------------------------------------------------------------
    // ADD
    // ---------------------------------------------------------------------------------------

    @Nested
    class Add {

        @Test
        void addsLittleEndian() {
            assertThat(apply(ADD, hex("01 00"), hex("01 00"))).isEqualTo(hex("02 00"));
            assertThat(apply(ADD, hex("34 12"), hex("01 01"))).isEqualTo(hex("35 13"));
        }

        @Test
        void carriesIntoHigherBytes() {
            assertThat(apply(ADD, hex("ff 00"), hex("01 00"))).isEqualTo(hex("00 01"));
            assertThat(apply(ADD, hex("ff ff ff 00"), hex("01 00 00 00"))).isEqualTo(hex("00 00 00 01"));
            assertThat(apply(ADD, hex("80 80"), hex("80 80"))).isEqualTo(hex("00 01"));
        }

        @Test
        void wrapsAroundDroppingTheFinalCarry() {
            assertThat(apply(ADD, hex("ff"), hex("01"))).isEqualTo(hex("00"));
            assertThat(apply(ADD, hex("ff ff"), hex("01 00"))).isEqualTo(hex("00 00"));
            assertThat(apply(ADD, hex("ff ff"), hex("ff ff"))).isEqualTo(hex("fe ff"));
        }

        @Test
        void addingMinusOneAsTwosComplementDecrements() {
            assertThat(apply(ADD, le64(42), le64(-1))).isEqualTo(le64(41));
            assertThat(apply(ADD, le64(0), le64(-1))).isEqualTo(le64(-1));
            assertThat(apply(ADD, le64(Long.MAX_VALUE), le64(1))).isEqualTo(le64(Long.MIN_VALUE));
        }

        @Test
        void longerExistingValueIsTruncatedToParamLength() {
            assertThat(apply(ADD, hex("01 02 03"), hex("01"))).isEqualTo(hex("02"));
            // the carry out of the param's last byte is lost, not added to the dropped bytes
            assertThat(apply(ADD, hex("ff 05"), hex("01"))).isEqualTo(hex("00"));
        }

        @Test
        void shorterExistingValueIsZeroExtended() {
            assertThat(apply(ADD, hex("ff"), hex("01 00 00"))).isEqualTo(hex("00 01 00"));
            assertThat(apply(ADD, hex("05"), hex("00 00 07"))).isEqualTo(hex("05 00 07"));
        }

        @Test
        void missingOrEmptyExistingValueYieldsParam() {
            assertThat(apply(ADD, null, hex("2a 00"))).isEqualTo(hex("2a 00"));
            assertThat(apply(ADD, hex(""), hex("2a 00"))).isEqualTo(hex("2a 00"));
        }

        @Test
        void emptyParamYieldsTheEmptyValueNotAClear() {
            assertThat(apply(ADD, hex("01 02"), hex(""))).isEmpty();
            assertThat(apply(ADD, null, hex(""))).isNotNull().isEmpty();
        }
    }

    // ---------------------------------------------------------------------------------------
    // BIT_AND / BIT_OR / BIT_XOR
    // ---------------------------------------------------------------------------------------

    @Nested
    class BitAnd {

        @Test
        void andsBytewise() {
            assertThat(apply(BIT_AND, hex("0f f0"), hex("ff 0f"))).isEqualTo(hex("0f 00"));
        }

        @Test
        void missingExistingValueYieldsParam() {
            // AndV2 semantics: at API >= 510 the client rewrites And(6) to AndV2(19)
            assertThat(apply(BIT_AND, null, hex("5a a5"))).isEqualTo(hex("5a a5"));
        }

        @Test
        void presentButEmptyExistingValueAndsAsZeros() {
            assertThat(apply(BIT_AND, hex(""), hex("ff ff"))).isEqualTo(hex("00 00"));
        }

        @Test
        void shorterExistingValueIsZeroExtended() {
            assertThat(apply(BIT_AND, hex("ff"), hex("ff ff"))).isEqualTo(hex("ff 00"));
        }

        @Test
        void longerExistingValueIsTruncated() {
            assertThat(apply(BIT_AND, hex("ff ff ff"), hex("0f"))).isEqualTo(hex("0f"));
        }

        @Test
        void emptyParamYieldsTheEmptyValue() {
            assertThat(apply(BIT_AND, hex("ff"), hex(""))).isEmpty();
            assertThat(apply(BIT_AND, null, hex(""))).isNotNull().isEmpty();
        }
    }

    @Nested
    class BitOr {

        @Test
        void orsBytewise() {
            assertThat(apply(BIT_OR, hex("0f 00"), hex("f0 01"))).isEqualTo(hex("ff 01"));
        }

        @Test
        void missingOrEmptyExistingValueYieldsParam() {
            assertThat(apply(BIT_OR, null, hex("12 34"))).isEqualTo(hex("12 34"));
            assertThat(apply(BIT_OR, hex(""), hex("12 34"))).isEqualTo(hex("12 34"));
        }

        @Test
        void shorterExistingValueIsZeroExtended() {
            assertThat(apply(BIT_OR, hex("01"), hex("10 20"))).isEqualTo(hex("11 20"));
        }

        @Test
        void longerExistingValueIsTruncated() {
            assertThat(apply(BIT_OR, hex("01 02 03"), hex("10"))).isEqualTo(hex("11"));
        }

        @Test
        void emptyParamYieldsTheEmptyValue() {
            assertThat(apply(BIT_OR, hex("ff ff"), hex(""))).isEmpty();
        }
    }

    @Nested
    class BitXor {

        @Test
        void xorsBytewise() {
            assertThat(apply(BIT_XOR, hex("ff 0f"), hex("0f 0f"))).isEqualTo(hex("f0 00"));
            assertThat(apply(BIT_XOR, hex("a5 5a"), hex("a5 5a"))).isEqualTo(hex("00 00"));
        }

        @Test
        void missingOrEmptyExistingValueYieldsParam() {
            assertThat(apply(BIT_XOR, null, hex("12 34"))).isEqualTo(hex("12 34"));
            assertThat(apply(BIT_XOR, hex(""), hex("12 34"))).isEqualTo(hex("12 34"));
        }

        @Test
        void shorterExistingValueIsZeroExtended() {
            assertThat(apply(BIT_XOR, hex("ff"), hex("0f 0f"))).isEqualTo(hex("f0 0f"));
        }

        @Test
        void longerExistingValueIsTruncated() {
            assertThat(apply(BIT_XOR, hex("ff ff ff"), hex("0f"))).isEqualTo(hex("f0"));
        }

        @Test
        void emptyParamYieldsTheEmptyValue() {
            assertThat(apply(BIT_XOR, hex("ff"), hex(""))).isEmpty();
        }
    }

    // ---------------------------------------------------------------------------------------
    // APPEND_IF_FITS
    // ---------------------------------------------------------------------------------------

    @Nested
    class AppendIfFits {

        @Test
        void appendsParamToExisting() {
            assertThat(apply(APPEND_IF_FITS, ascii("ab"), ascii("cd"))).isEqualTo(ascii("abcd"));
        }

        @Test
        void missingOrEmptyExistingValueYieldsParam() {
            assertThat(apply(APPEND_IF_FITS, null, ascii("cd"))).isEqualTo(ascii("cd"));
            assertThat(apply(APPEND_IF_FITS, hex(""), ascii("cd"))).isEqualTo(ascii("cd"));
        }

        @Test
        void emptyParamKeepsExisting() {
            assertThat(apply(APPEND_IF_FITS, ascii("ab"), hex(""))).isEqualTo(ascii("ab"));
        }

        @Test
        void missingExistingWithEmptyParamSetsTheEmptyValue() {
            assertThat(apply(APPEND_IF_FITS, null, hex(""))).isNotNull().isEmpty();
        }

        @Test
        void appendsWhenTheResultIsExactlyTheValueSizeLimit() {
            byte[] existing = filled(99_998, (byte) 'x');
            byte[] result = apply(APPEND_IF_FITS, existing, ascii("yz"));
            assertThat(result).hasSize(100_000);
            assertThat(Arrays.copyOf(result, 99_998)).isEqualTo(existing);
            assertThat(Arrays.copyOfRange(result, 99_998, 100_000)).isEqualTo(ascii("yz"));
        }

        @Test
        void keepsExistingWhenTheResultWouldBeOneByteOverTheLimit() {
            byte[] existing = filled(99_999, (byte) 'x');
            assertThat(apply(APPEND_IF_FITS, existing, ascii("yz"))).isEqualTo(existing);
        }

        @Test
        void keepsAFullValueWhenAppendingOneByte() {
            byte[] existing = filled(AtomicOps.VALUE_SIZE_LIMIT, (byte) 'x');
            assertThat(apply(APPEND_IF_FITS, existing, ascii("y"))).isEqualTo(existing);
        }

        @Test
        void aParamOfExactlyTheLimitIsStoredWhenThereIsNoExistingValue() {
            byte[] param = filled(100_000, (byte) 'p');
            assertThat(apply(APPEND_IF_FITS, null, param)).isEqualTo(param);
            assertThat(apply(APPEND_IF_FITS, ascii("a"), param)).isEqualTo(ascii("a"));
        }

        private byte[] filled(int n, byte b) {
            byte[] out = new byte[n];
            Arrays.fill(out, b);
            return out;
        }
    }

    // ---------------------------------------------------------------------------------------
    // MAX / MIN (little-endian unsigned integers)
    // ---------------------------------------------------------------------------------------

    @Nested
    class Max {

        @Test
        void picksTheLargerValue() {
            assertThat(apply(MAX, hex("01 00"), hex("02 00"))).isEqualTo(hex("02 00"));
            assertThat(apply(MAX, hex("05 00"), hex("02 00"))).isEqualTo(hex("05 00"));
        }

        @Test
        void comparesLittleEndianSoTheLastByteIsMostSignificant() {
            // 0x0100 = 256 beats 0x00ff = 255, although ff > 00 in the first byte
            assertThat(apply(MAX, hex("00 01"), hex("ff 00"))).isEqualTo(hex("00 01"));
            assertThat(apply(MAX, hex("ff 00"), hex("00 01"))).isEqualTo(hex("00 01"));
        }

        @Test
        void comparesUnsigned() {
            assertThat(apply(MAX, hex("80"), hex("7f"))).isEqualTo(hex("80"));
        }

        @Test
        void equalValuesYieldParam() {
            assertThat(apply(MAX, hex("07 07"), hex("07 07"))).isEqualTo(hex("07 07"));
        }

        @Test
        void missingOrEmptyExistingValueYieldsParam() {
            assertThat(apply(MAX, null, hex("00 00"))).isEqualTo(hex("00 00"));
            assertThat(apply(MAX, hex(""), hex("03"))).isEqualTo(hex("03"));
        }

        @Test
        void emptyParamYieldsTheEmptyValueEvenOverALargerExistingValue() {
            assertThat(apply(MAX, hex("ff ff"), hex(""))).isEmpty();
        }

        @Test
        void shorterExistingValueIsZeroExtended() {
            assertThat(apply(MAX, hex("ff"), hex("00 01"))).isEqualTo(hex("00 01"));
            assertThat(apply(MAX, hex("ff"), hex("01 00"))).isEqualTo(hex("ff 00"));
        }

        @Test
        void longerExistingValueIsTruncatedBeforeComparing() {
            // existing 0xff05 would win untruncated; only its low byte 05 is compared and kept
            assertThat(apply(MAX, hex("05 ff"), hex("03"))).isEqualTo(hex("05"));
            assertThat(apply(MAX, hex("01 ff"), hex("03"))).isEqualTo(hex("03"));
        }
    }

    @Nested
    class Min {

        @Test
        void picksTheSmallerValue() {
            assertThat(apply(MIN, hex("05 00"), hex("02 00"))).isEqualTo(hex("02 00"));
            assertThat(apply(MIN, hex("01 00"), hex("02 00"))).isEqualTo(hex("01 00"));
        }

        @Test
        void comparesLittleEndianSoTheLastByteIsMostSignificant() {
            assertThat(apply(MIN, hex("00 01"), hex("ff 00"))).isEqualTo(hex("ff 00"));
            assertThat(apply(MIN, hex("ff 00"), hex("00 01"))).isEqualTo(hex("ff 00"));
        }

        @Test
        void comparesUnsigned() {
            assertThat(apply(MIN, hex("80"), hex("7f"))).isEqualTo(hex("7f"));
        }

        @Test
        void equalValuesYieldParam() {
            assertThat(apply(MIN, hex("07 07"), hex("07 07"))).isEqualTo(hex("07 07"));
        }

        @Test
        void missingExistingValueYieldsParam() {
            // MinV2 semantics: at API >= 510 the client rewrites Min(13) to MinV2(18)
            assertThat(apply(MIN, null, hex("05 07"))).isEqualTo(hex("05 07"));
        }

        @Test
        void presentButEmptyExistingValueReadsAsZero() {
            assertThat(apply(MIN, hex(""), hex("05 07"))).isEqualTo(hex("00 00"));
        }

        @Test
        void emptyParamYieldsTheEmptyValue() {
            assertThat(apply(MIN, hex("01"), hex(""))).isEmpty();
            assertThat(apply(MIN, null, hex(""))).isNotNull().isEmpty();
        }

        @Test
        void shorterExistingValueIsZeroExtended() {
            assertThat(apply(MIN, hex("ff"), hex("00 01"))).isEqualTo(hex("ff 00"));
        }

        @Test
        void longerExistingValueIsTruncatedBeforeComparing() {
            // existing 0xff01 would lose untruncated; only its low byte 01 is compared and kept
            assertThat(apply(MIN, hex("01 ff"), hex("03"))).isEqualTo(hex("01"));
            assertThat(apply(MIN, hex("05 00"), hex("03"))).isEqualTo(hex("03"));
        }
    }

    // ---------------------------------------------------------------------------------------
    // BYTE_MIN / BYTE_MAX (lexicographic, unsigned)
    // ---------------------------------------------------------------------------------------

    @Nested
    class ByteMinMax {

        @Test
        void comparesLexicographically() {
            assertThat(apply(BYTE_MIN, ascii("abd"), ascii("abc"))).isEqualTo(ascii("abc"));
            assertThat(apply(BYTE_MIN, ascii("abc"), ascii("abd"))).isEqualTo(ascii("abc"));
            assertThat(apply(BYTE_MAX, ascii("abd"), ascii("abc"))).isEqualTo(ascii("abd"));
            assertThat(apply(BYTE_MAX, ascii("abc"), ascii("abd"))).isEqualTo(ascii("abd"));
        }

        @Test
        void comparesBytesUnsigned() {
            assertThat(apply(BYTE_MAX, hex("80"), hex("7f"))).isEqualTo(hex("80"));
            assertThat(apply(BYTE_MIN, hex("80"), hex("7f"))).isEqualTo(hex("7f"));
        }

        @Test
        void aProperPrefixIsSmallerAndLengthsAreKept() {
            assertThat(apply(BYTE_MIN, ascii("abc"), ascii("ab"))).isEqualTo(ascii("ab"));
            assertThat(apply(BYTE_MIN, ascii("ab"), ascii("abc"))).isEqualTo(ascii("ab"));
            assertThat(apply(BYTE_MAX, ascii("ab"), ascii("abc"))).isEqualTo(ascii("abc"));
            assertThat(apply(BYTE_MAX, ascii("abc"), ascii("ab"))).isEqualTo(ascii("abc"));
            // no integer-style resizing: a longer, larger existing value survives whole
            assertThat(apply(BYTE_MAX, ascii("b"), ascii("a\u0000\u0000"))).isEqualTo(ascii("b"));
        }

        @Test
        void missingExistingValueYieldsParam() {
            assertThat(apply(BYTE_MIN, null, ascii("z"))).isEqualTo(ascii("z"));
            assertThat(apply(BYTE_MAX, null, ascii("a"))).isEqualTo(ascii("a"));
            assertThat(apply(BYTE_MIN, null, hex(""))).isNotNull().isEmpty();
        }

        @Test
        void emptyParam() {
            assertThat(apply(BYTE_MIN, ascii("a"), hex(""))).isEmpty();
            assertThat(apply(BYTE_MAX, ascii("a"), hex(""))).isEqualTo(ascii("a"));
        }

        @Test
        void presentButEmptyExistingValue() {
            assertThat(apply(BYTE_MIN, hex(""), ascii("a"))).isEmpty();
            assertThat(apply(BYTE_MAX, hex(""), ascii("a"))).isEqualTo(ascii("a"));
        }
    }

    // ---------------------------------------------------------------------------------------
    // COMPARE_AND_CLEAR
    // ---------------------------------------------------------------------------------------

    @Nested
    class CompareAndClear {

        @Test
        void clearsWhenEqual() {
            assertThat(apply(COMPARE_AND_CLEAR, ascii("v"), ascii("v"))).isNull();
        }

        @Test
        void keepsExistingWhenDifferent() {
            assertThat(apply(COMPARE_AND_CLEAR, ascii("v"), ascii("w"))).isEqualTo(ascii("v"));
            assertThat(apply(COMPARE_AND_CLEAR, ascii("v"), ascii("vv"))).isEqualTo(ascii("v"));
        }

        @Test
        void missingValueStaysMissing() {
            assertThat(apply(COMPARE_AND_CLEAR, null, ascii("v"))).isNull();
            assertThat(apply(COMPARE_AND_CLEAR, null, hex(""))).isNull();
        }

        @Test
        void emptyValues() {
            assertThat(apply(COMPARE_AND_CLEAR, hex(""), hex(""))).isNull();
            assertThat(apply(COMPARE_AND_CLEAR, hex(""), ascii("v"))).isNotNull().isEmpty();
            assertThat(apply(COMPARE_AND_CLEAR, ascii("v"), hex(""))).isEqualTo(ascii("v"));
        }
    }

    // ---------------------------------------------------------------------------------------
    // Aliasing
    // ---------------------------------------------------------------------------------------

    @Test
    void resultIsNeverAnArgumentAndArgumentsAreNotModified() {
        int[] codes = {ADD, BIT_AND, BIT_OR, BIT_XOR, APPEND_IF_FITS, MAX, MIN, BYTE_MIN, BYTE_MAX,
            COMPARE_AND_CLEAR};
        byte[][] samples = {null, hex(""), hex("01"), hex("ff 00"), hex("00 ff 7f")};
        for (int code : codes) {
            for (byte[] existing : samples) {
                for (byte[] param : samples) {
                    if (param == null) {
                        continue;
                    }
                    byte[] existingCopy = existing == null ? null : existing.clone();
                    byte[] paramCopy = param.clone();
                    byte[] result = apply(code, existing, param);
                    if (result != null) {
                        assertThat(result).isNotSameAs(existing).isNotSameAs(param);
                    }
                    assertThat(existing).isEqualTo(existingCopy);
                    assertThat(param).isEqualTo(paramCopy);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Properties against an independent BigInteger model
    // ---------------------------------------------------------------------------------------

    /** Unsigned little-endian integer value of {@code b}; null reads as zero. */
    static BigInteger fromLittleEndian(byte[] b) {
        if (b == null) {
            return BigInteger.ZERO;
        }
        byte[] bigEndian = new byte[b.length + 1]; // leading 0x00 keeps it non-negative
        for (int i = 0; i < b.length; i++) {
            bigEndian[b.length - i] = b[i];
        }
        return new BigInteger(bigEndian);
    }

    /** {@code v mod 2^(8n)} as {@code n} little-endian bytes. */
    static byte[] toLittleEndian(BigInteger v, int n) {
        BigInteger reduced = v.mod(BigInteger.ONE.shiftLeft(8 * n));
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = reduced.shiftRight(8 * i).byteValue();
        }
        return out;
    }

    static BigInteger modulus(int n) {
        return BigInteger.ONE.shiftLeft(8 * n);
    }

    @Provide
    Arbitrary<byte[]> values() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(12);
    }

    @Provide
    Arbitrary<byte[]> maybeMissing() {
        return values().injectNull(0.15);
    }

    @Property
    void addIsLittleEndianAdditionModuloTheParamWidth(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        int n = param.length;
        BigInteger expected = fromLittleEndian(existing).add(fromLittleEndian(param)).mod(modulus(n));
        assertThat(apply(ADD, existing, param)).isEqualTo(toLittleEndian(expected, n));
    }

    @Property
    void maxIsUnsignedMaximumOfTheTruncatedExistingValueAndParam(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        int n = param.length;
        byte[] expected = (existing == null || existing.length == 0)
                ? param
                : toLittleEndian(fromLittleEndian(existing).mod(modulus(n)).max(fromLittleEndian(param)), n);
        assertThat(apply(MAX, existing, param)).isEqualTo(expected);
    }

    @Property
    void minIsUnsignedMinimumOfTheTruncatedExistingValueAndParam(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        int n = param.length;
        byte[] expected = existing == null
                ? param
                : toLittleEndian(fromLittleEndian(existing).mod(modulus(n)).min(fromLittleEndian(param)), n);
        assertThat(apply(MIN, existing, param)).isEqualTo(expected);
    }

    @Property
    void bitwiseOpsMatchBigIntegerBitwiseOpsAtTheParamWidth(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        int n = param.length;
        BigInteger e = fromLittleEndian(existing).mod(modulus(n));
        BigInteger p = fromLittleEndian(param);
        assertThat(apply(BIT_OR, existing, param)).isEqualTo(toLittleEndian(e.or(p), n));
        assertThat(apply(BIT_XOR, existing, param)).isEqualTo(toLittleEndian(e.xor(p), n));
        byte[] expectedAnd = existing == null ? param : toLittleEndian(e.and(p), n);
        assertThat(apply(BIT_AND, existing, param)).isEqualTo(expectedAnd);
    }

    @Property
    void byteMinAndByteMaxPickOneOperandAndBoundTheOther(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        byte[] lo = apply(BYTE_MIN, existing, param);
        byte[] hi = apply(BYTE_MAX, existing, param);
        if (existing == null) {
            assertThat(lo).isEqualTo(param);
            assertThat(hi).isEqualTo(param);
            return;
        }
        assertThat(lo).satisfiesAnyOf(v -> assertThat(v).isEqualTo(existing), v -> assertThat(v).isEqualTo(param));
        assertThat(hi).satisfiesAnyOf(v -> assertThat(v).isEqualTo(existing), v -> assertThat(v).isEqualTo(param));
        assertThat(Arrays.compareUnsigned(lo, existing)).isLessThanOrEqualTo(0);
        assertThat(Arrays.compareUnsigned(lo, param)).isLessThanOrEqualTo(0);
        assertThat(Arrays.compareUnsigned(hi, existing)).isGreaterThanOrEqualTo(0);
        assertThat(Arrays.compareUnsigned(hi, param)).isGreaterThanOrEqualTo(0);
    }

    @Property
    void appendIfFitsConcatenatesSmallValues(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        byte[] before = existing == null ? new byte[0] : existing;
        byte[] expected = Arrays.copyOf(before, before.length + param.length);
        System.arraycopy(param, 0, expected, before.length, param.length);
        assertThat(apply(APPEND_IF_FITS, existing, param)).isEqualTo(expected);
    }

    @Property
    void compareAndClearClearsExactlyOnEqualityOrMissing(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        byte[] result = apply(COMPARE_AND_CLEAR, existing, param);
        if (existing == null || Arrays.equals(existing, param)) {
            assertThat(result).isNull();
        } else {
            assertThat(result).isEqualTo(existing);
        }
    }

    @Property
    void integerOpsAlwaysProduceParamLength(
            @ForAll("maybeMissing") byte[] existing, @ForAll("values") byte[] param) {
        for (int code : new int[] {ADD, BIT_AND, BIT_OR, BIT_XOR, MAX, MIN}) {
            assertThat(apply(code, existing, param)).as("code %d", code).hasSize(param.length);
        }
    }
}
