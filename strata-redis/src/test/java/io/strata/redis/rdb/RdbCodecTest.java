package io.strata.redis.rdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The payload codec on its own, against payloads captured from redis-server 7.0.15 (DUMP)
 * and from the RDB files of Redis's test suite (the pre-7.0 encodings, each value sealed
 * with its file's RDB version and a CRC-64).
 */
class RdbCodecTest {
    static byte[] hex(String h) {
        return HexFormat.of().parseHex(h);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    static List<String> texts(List<byte[]> items) {
        return items.stream().map(RdbCodecTest::text).toList();
    }

    @Test
    void crc64IsRedisJonesVariant() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(Crc64.of(check, 0, check.length)).isEqualTo(0xe9c6d914c4b8d9caL);
    }

    @Test
    void verifyChecksVersionAndChecksum() {
        byte[] good = hex("000568656c6c6f0a006372df766534200a");
        assertThat(DumpPayload.verify(good)).isTrue();
        byte[] flipped = good.clone();
        flipped[2] ^= 1;
        assertThat(DumpPayload.verify(flipped)).isFalse();
        assertThat(DumpPayload.verify(new byte[9])).isFalse();
        // Version 11 with a correct checksum: newer than Redis 7.0 writes, refused.
        byte[] newer = DumpPayload.seal(hex("000161"));
        newer[newer.length - 10] = 11;
        byte[] resealed = java.util.Arrays.copyOf(newer, newer.length);
        long crc = Crc64.of(resealed, 0, resealed.length - 8);
        for (int i = 0; i < 8; i++) {
            resealed[resealed.length - 8 + i] = (byte) (crc >>> (8 * i));
        }
        assertThat(DumpPayload.verify(resealed)).isFalse();
    }

    @Test
    void stringsRawIntegerAndLzf() {
        assertThat(text(((RdbValue.StringValue) RdbDecoder.decode(hex("000568656c6c6f0a006372df766534200a"))).value())).isEqualTo("hello");
        assertThat(text(((RdbValue.StringValue) RdbDecoder.decode(hex("00c0f90a005e26d130d7a242ab"))).value())).isEqualTo("-7");
        assertThat(text(((RdbValue.StringValue) RdbDecoder.decode(hex("00c139300a009d94ea2793fc08b9"))).value())).isEqualTo("12345");
        assertThat(text(((RdbValue.StringValue) RdbDecoder.decode(hex("00c2a08601000a00f12403506f2fa674"))).value())).isEqualTo("100000");
        assertThat(text(((RdbValue.StringValue) RdbDecoder.decode(hex("00c30928017878e01b000178780a007a1d6ccea5401333"))).value()))
                .isEqualTo("x".repeat(40));
    }

    @Test
    void encoderWritesWhatRedisWritesForUncompressedStrings() {
        assertThat(RdbEncoder.encode(new RdbValue.StringValue("hello".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo(hex("000568656c6c6f0a006372df766534200a"));
        assertThat(RdbEncoder.encode(new RdbValue.StringValue("12345".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo(hex("00c139300a009d94ea2793fc08b9"));
        assertThat(RdbEncoder.encode(new RdbValue.StringValue("100000".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo(hex("00c2a08601000a00f12403506f2fa674"));
    }

    @Test
    void encoderKeepsNonCanonicalNumbersAsText() {
        for (String s : List.of("007", "+1", "-0", "4294967296", " 1")) {
            byte[] payload = RdbEncoder.encode(new RdbValue.StringValue(s.getBytes(StandardCharsets.US_ASCII)));
            assertThat(payload[1]).isEqualTo((byte) s.length());
            assertThat(text(((RdbValue.StringValue) RdbDecoder.decode(payload)).value())).isEqualTo(s);
        }
    }

    @Test
    void compactEncodingsOfRedis7() {
        RdbValue.HashValue h = (RdbValue.HashValue) RdbDecoder.decode(hex("10151500000004008266310382763103826632030201ff0a005c5ea813feec1ff5"));
        assertThat(texts(h.fields())).containsExactly("f1", "f2");
        assertThat(texts(h.values())).containsExactly("v1", "2");
        RdbValue.ZSetValue z = (RdbValue.ZSetValue) RdbDecoder.decode(
                hex("111d1d0000000600816202842d696e660581610283312e35048163020301ff0a002970c58fcde6fc31"));
        assertThat(texts(z.members())).containsExactly("b", "a", "c");
        assertThat(z.scores()).containsExactly(Double.NEGATIVE_INFINITY, 1.5, 3.0);
        RdbValue.SetValue is = (RdbValue.SetValue) RdbDecoder.decode(hex("0b0e0200000003000000fdff010002000a00d1b78ed9bc07c27f"));
        assertThat(texts(is.members())).containsExactly("-3", "1", "2");
        RdbValue.ListValue ql = (RdbValue.ListValue) RdbDecoder.decode(hex("1201020f0f00000003008161028162020701ff0a00a4d57d137e93439c"));
        assertThat(texts(ql.elements())).containsExactly("a", "b", "7");
        RdbValue.ListValue plain = (RdbValue.ListValue) RdbDecoder.decode(
                hex("1202020e0e000000010085736d616c6c06ff010c7070707070707070707070700a001318a281575d8f86"));
        assertThat(texts(plain.elements())).containsExactly("small", "p".repeat(12));
    }

    @Test
    void olderEncodingsRedis7StillLoads() {
        RdbValue.HashValue zipmap = (RdbValue.HashValue) RdbDecoder.decode(hex("0910020266310200763102663202007632ff0300ead239e970a5b6e0"));
        assertThat(texts(zipmap.fields())).containsExactly("f1", "f2");
        assertThat(texts(zipmap.values())).containsExactly("v1", "v2");
        RdbValue.HashValue ziplist = (RdbValue.HashValue) RdbDecoder.decode(
                hex("0d1b1b00000016000000040000026631040276310402663204027632ff0900777d2e23e132521f"));
        assertThat(texts(ziplist.values())).containsExactly("v1", "v2");
        RdbValue.ZSetValue zz = (RdbValue.ZSetValue) RdbDecoder.decode(
                hex("0c191900000016000000040000036f6e6505f2020374776f05f3ff0a0060e90b962c140aca"));
        assertThat(texts(zz.members())).containsExactly("one", "two");
        assertThat(zz.scores()).containsExactly(1.0, 2.0);
        RdbValue.ListValue lz = (RdbValue.ListValue) RdbDecoder.decode(
                hex("0a303000000025000000080000c0010004c0020004c0030004016103016203016303d0a086010006e000bca06501000000ff04004d40f1bdecce17f6"));
        assertThat(texts(lz.elements())).containsExactly("1", "2", "3", "a", "b", "c", "100000", "6000000000");
        RdbValue.ListValue quicklist = (RdbValue.ListValue) RdbDecoder.decode(hex("0e010d0d0000000a000000010000f8ff080010ebd801dd1c4d8d"));
        assertThat(texts(quicklist.elements())).containsExactly("7");
        RdbValue.ZSetValue textScores = (RdbValue.ZSetValue) RdbDecoder.decode(hex(
                "030c026262023230026363023330036262620332303004626262620a3530303030303030303003636363033330300463636363093132333435363738390161013102616102313001620132036161610331303001630133046161616104313030300400ccdca26b492040f9"));
        assertThat(textScores.members()).hasSize(12);
        assertThat(textScores.scores()).contains(5_000_000_000.0, 123456789.0);
    }

    @Test
    void emptyDuplicateAndNanValuesAreBadFormat() {
        assertBad("0100");
        assertBad("0200");
        assertBad("0400");
        assertBad("0500");
        assertBad("020201610161");
        assertBad("04020161016201610163");
        assertBad("05010161000000000000f87f");
        assertBad("03010161fd");
        assertBad("0b0800000000");
    }

    @Test
    void truncatedAndMalformedCompactValuesAreBadFormat() {
        // A listpack whose size field disagrees with the blob, one cut short, a quicklist node of an unknown container.
        assertBad("101516000000040082663103827631038266320302" + "01ff");
        assertBad("0105");
        assertBad("12010303");
        assertBad("08");
        // An LZF string claiming 2 GB from 4 compressed bytes.
        assertBad("00c304807fffffff01616161");
    }

    @Test
    void modulesAreRefusedClearlyAndDamagedStreamsAsBadData() {
        assertThatThrownBy(() -> RdbDecoder.decode(DumpPayload.seal(hex("0f00")))).isInstanceOf(RdbFormatException.class);
        assertThatThrownBy(() -> RdbDecoder.decode(DumpPayload.seal(hex("0700")))).isInstanceOf(UnsupportedValueException.class)
                .hasMessageContaining("module");
    }

    private static void assertBad(String body) {
        byte[] payload = DumpPayload.seal(hex(body));
        assertThatThrownBy(() -> RdbDecoder.decode(payload)).isInstanceOf(RdbFormatException.class);
    }
}
