package io.strata.engine.mutation;

import static io.strata.engine.mutation.Versionstamps.offsetOf;
import static io.strata.engine.mutation.Versionstamps.substitute;
import static io.strata.engine.mutation.Versionstamps.versionstamp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VersionstampsTest {

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code body} followed by {@code offset} as a 4-byte little-endian integer. */
    static byte[] withOffset(byte[] body, int offset) {
        byte[] out = Arrays.copyOf(body, body.length + 4);
        out[body.length] = (byte) offset;
        out[body.length + 1] = (byte) (offset >>> 8);
        out[body.length + 2] = (byte) (offset >>> 16);
        out[body.length + 3] = (byte) (offset >>> 24);
        return out;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static final byte[] PLACEHOLDER = hex("ff ff ff ff ff ff ff ff ff ff");

    static void assertInvalidApiCall(ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOf(FDBException.class)
                .hasMessage("Invalid API call")
                .satisfies(e -> assertThat(((FDBException) e).getCode()).isEqualTo(2000));
    }

    // ---------------------------------------------------------------------------------------
    // versionstamp(version, order)
    // ---------------------------------------------------------------------------------------

    @Test
    void versionstampIsBigEndianVersionThenBigEndianBatchOrder() {
        assertThat(versionstamp(0x0102030405060708L, 0x090a)).isEqualTo(hex("01 02 03 04 05 06 07 08 09 0a"));
        assertThat(versionstamp(0, 0)).isEqualTo(new byte[10]);
        assertThat(versionstamp(1, 1)).isEqualTo(hex("00 00 00 00 00 00 00 01 00 01"));
        assertThat(versionstamp(Long.MAX_VALUE, 0xffff)).isEqualTo(hex("7f ff ff ff ff ff ff ff ff ff"));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0x10000, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void batchOrderMustFitInSixteenUnsignedBits(int order) {
        assertThatIllegalArgumentException().isThrownBy(() -> versionstamp(1, order));
    }

    @Property
    void versionstampsSortInCommitOrder(
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long v1, @ForAll @IntRange(max = 0xffff) int o1,
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long v2, @ForAll @IntRange(max = 0xffff) int o2) {
        int expected = v1 != v2 ? Long.compare(v1, v2) : Integer.compare(o1, o2);
        int actual = Arrays.compareUnsigned(versionstamp(v1, o1), versionstamp(v2, o2));
        assertThat(Integer.signum(actual)).isEqualTo(Integer.signum(expected));
    }

    @Test
    void versionstampMatchesTheBindingsVersionstampLayout() {
        byte[] stamp = versionstamp(0x0000_00AB_CDEF_0123L, 0x0405);
        Versionstamp complete = Versionstamp.complete(stamp, 7);
        assertThat(complete.getTransactionVersion()).isEqualTo(stamp);
        assertThat(Arrays.copyOf(complete.getBytes(), 10)).isEqualTo(stamp);
    }

    // ---------------------------------------------------------------------------------------
    // offsetOf
    // ---------------------------------------------------------------------------------------

    @Test
    void offsetAtTheStart() {
        assertThat(offsetOf(withOffset(PLACEHOLDER, 0))).isZero();
        assertThat(offsetOf(withOffset(concat(PLACEHOLDER, ascii("tail")), 0))).isZero();
    }

    @Test
    void offsetAtTheVeryEndOfTheBody() {
        // body "abc" + 10 placeholder bytes: offset 3 puts the stamp flush against the suffix
        byte[] body = concat(ascii("abc"), PLACEHOLDER);
        assertThat(offsetOf(withOffset(body, 3))).isEqualTo(3);
    }

    @Test
    void offsetIsLittleEndian() {
        byte[] body = new byte[0x0102 + 10];
        assertThat(offsetOf(withOffset(body, 0x0102))).isEqualTo(0x0102);
        assertThat(withOffset(body, 0x0102)).endsWith(hex("02 01 00 00"));
    }

    @Test
    void offsetOnePastTheLastValidPositionIsRejected() {
        byte[] body = concat(ascii("abc"), PLACEHOLDER);
        assertInvalidApiCall(() -> offsetOf(withOffset(body, 4)));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void arraysShorterThanTheOffsetSuffixAreRejected(int length) {
        assertInvalidApiCall(() -> offsetOf(new byte[length]));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 9})
    void bodiesShorterThanAVersionstampAreRejected(int bodyLength) {
        assertInvalidApiCall(() -> offsetOf(withOffset(new byte[bodyLength], 0)));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, -10, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE - 9, 1 << 24})
    void negativeAndHugeOffsetsAreRejectedWithoutOverflow(int offset) {
        assertInvalidApiCall(() -> offsetOf(withOffset(new byte[64], offset)));
    }

    @Test
    void theSuffixItselfIsNotPartOfTheBody() {
        // 14 bytes: a 10-byte body fits only at offset 0; offset 4 would overlap the suffix
        assertInvalidApiCall(() -> offsetOf(withOffset(new byte[10], 4)));
    }

    @Test
    void nullIsRejected() {
        assertThatNullPointerException().isThrownBy(() -> offsetOf(null));
    }

    // ---------------------------------------------------------------------------------------
    // substitute
    // ---------------------------------------------------------------------------------------

    @Test
    void substitutesAtTheStart() {
        byte[] in = withOffset(concat(PLACEHOLDER, ascii("xyz")), 0);
        byte[] stamp = versionstamp(0x1122334455667788L, 0x99aa);
        assertThat(substitute(in, stamp)).isEqualTo(concat(stamp, ascii("xyz")));
    }

    @Test
    void substitutesAtTheEnd() {
        byte[] in = withOffset(concat(ascii("prefix"), PLACEHOLDER), 6);
        byte[] stamp = versionstamp(5, 2);
        assertThat(substitute(in, stamp)).isEqualTo(concat(ascii("prefix"), stamp));
    }

    @Test
    void substitutesInTheMiddleKeepingTheSurroundingBytes() {
        byte[] in = withOffset(concat(ascii("ab"), PLACEHOLDER, ascii("cd")), 2);
        byte[] stamp = versionstamp(0x0102030405060708L, 0x090a);
        assertThat(substitute(in, stamp)).isEqualTo(concat(ascii("ab"), stamp, ascii("cd")));
    }

    @Test
    void thePlaceholderContentDoesNotMatter() {
        byte[] in = withOffset(ascii("0123456789"), 0);
        byte[] stamp = versionstamp(9, 9);
        assertThat(substitute(in, stamp)).isEqualTo(stamp);
    }

    @Test
    void theInputIsNotModified() {
        byte[] in = withOffset(concat(ascii("ab"), PLACEHOLDER), 2);
        byte[] copy = in.clone();
        substitute(in, versionstamp(1, 1));
        assertThat(in).isEqualTo(copy);
    }

    @Test
    void badOffsetsAreRejected() {
        byte[] stamp = versionstamp(1, 1);
        assertInvalidApiCall(() -> substitute(withOffset(PLACEHOLDER, 1), stamp));
        assertInvalidApiCall(() -> substitute(hex("00 00 00"), stamp));
        assertInvalidApiCall(() -> substitute(withOffset(PLACEHOLDER, -1), stamp));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 9, 11, 12})
    void theVersionstampMustBeTenBytes(int length) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> substitute(withOffset(PLACEHOLDER, 0), new byte[length]));
    }

    @Test
    void resultMatchesTheTupleLayerEncodingOfACompleteVersionstamp() {
        // Build by hand what Tuple.from("k", Versionstamp.incomplete(7)).packWithVersionstamp()
        // produces at API >= 520 (that call needs a selected API version, hence native code):
        // the packed "k", the versionstamp type code 0x33, 10 placeholder bytes, the 2-byte user
        // version, and the 4-byte little-endian offset of the placeholder.
        byte[] packedK = Tuple.from("k").pack();
        byte[] body = concat(packedK, hex("33"), PLACEHOLDER, hex("00 07"));
        byte[] stamp = versionstamp(0x00000001_00000002L, 3);

        byte[] written = substitute(withOffset(body, packedK.length + 1), stamp);

        byte[] expected = Tuple.from("k", Versionstamp.complete(stamp, 7)).pack();
        assertThat(written).isEqualTo(expected);
        assertThat(Tuple.fromBytes(written).getVersionstamp(1)).isEqualTo(Versionstamp.complete(stamp, 7));
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(20);
    }

    @Property
    void substitutionReplacesExactlyTenBytesAtTheOffset(
            @ForAll("bytes") byte[] before, @ForAll("bytes") byte[] after,
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long version, @ForAll @IntRange(max = 0xffff) int order) {
        byte[] stamp = versionstamp(version, order);
        byte[] in = withOffset(concat(before, PLACEHOLDER, after), before.length);
        assertThat(offsetOf(in)).isEqualTo(before.length);
        assertThat(substitute(in, stamp)).isEqualTo(concat(before, stamp, after));
    }

    @Property
    void anyOffsetPastTheLastFittingPositionIsRejected(
            @ForAll @IntRange(min = 0, max = 40) int bodyLength, @ForAll @IntRange(min = 0, max = 60) int offset) {
        byte[] in = withOffset(new byte[bodyLength], offset);
        if (offset + 10 <= bodyLength) {
            assertThat(offsetOf(in)).isEqualTo(offset);
        } else {
            assertInvalidApiCall(() -> offsetOf(in));
        }
    }
}
