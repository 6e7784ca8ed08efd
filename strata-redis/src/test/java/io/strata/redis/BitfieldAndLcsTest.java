package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.LCSParams;
import redis.clients.jedis.resps.LCSMatchResult;

/** BITFIELD, BITFIELD_RO and LCS over TCP; expected values are Redis 7.0's (its docs and tests). */
class BitfieldAndLcsTest extends ServerTestSupport {

    private List<Long> bitfield(String key, String... args) {
        return jedis.bitfield(key, args);
    }

    @Test
    void fieldsAtTheLastBitOfA512MegabyteStringAreWrittenWithoutTheBytesBeforeThem() {
        // Lettuce's own tests: BITFIELD SET/INCRBY u1 at bit 2^32 - 1; Redis pads the string to 512 MB.
        assertThat(bitfield("far", "SET", "u1", "4294967295", "1")).containsExactly(0L);
        assertThat(jedis.getbit("far", 4294967295L)).isTrue();
        assertThat(jedis.strlen("far")).isEqualTo(536_870_912L);
        assertThat(jedis.bitcount("far")).isEqualTo(1L);
        assertThat(bitfield("far", "INCRBY", "u2", "4294967294", "1", "GET", "u2", "4294967294")).containsExactly(2L, 2L);
        assertThat(bitfield("far", "SET", "i8", "100", "-7", "GET", "i8", "100", "GET", "u1", "4294967295"))
                .containsExactly(0L, -7L, 0L);

        // Even when an overflow check fails every write, the string is padded, as in Redis.
        assertThat(bitfield("padded", "OVERFLOW", "FAIL", "INCRBY", "u2", "800000000", "9")).containsExactly((Long) null);
        assertThat(jedis.strlen("padded")).isEqualTo(100_000_001L);
        assertThat(jedis.bitcount("padded")).isZero();
        jedis.set("small", "ab");
        assertThat(bitfield("small", "SET", "u8", "7999992", "255")).containsExactly(0L);
        assertThat(jedis.strlen("small")).isEqualTo(1_000_000L);
        assertThat(jedis.getrange("small", 0, 1)).isEqualTo("ab");
        assertThat(jedis.bitcount("small")).isEqualTo(8L + 3 + 3);
    }

    @Test
    void setGetAndIncrbySignedAndUnsigned() {
        assertThat(bitfield("bf", "SET", "i8", "0", "-100", "GET", "i8", "0")).containsExactly(0L, -100L);
        assertThat(bitfield("bf", "SET", "u8", "0", "255", "GET", "u8", "0")).containsExactly(156L, 255L);
        assertThat(bitfield("bf", "INCRBY", "u2", "100", "1", "GET", "u2", "100")).containsExactly(1L, 1L);
        assertThat(bitfield("bf", "GET", "i64", "0")).hasSize(1);
        // #n offsets count in units of the type's width.
        assertThat(bitfield("h", "SET", "u8", "#1", "65", "GET", "u8", "8")).containsExactly(0L, 65L);
        assertThat(jedis.get("h")).isEqualTo("\u0000A");
        assertThat(bitfield("empty")).isEmpty();
    }

    @Test
    void overflowWrapSatAndFail() {
        assertThat(bitfield("u", "SET", "u8", "0", "255", "INCRBY", "u8", "0", "10")).containsExactly(0L, 9L);
        assertThat(bitfield("u", "OVERFLOW", "SAT", "INCRBY", "u8", "0", "300")).containsExactly(255L);
        assertThat(bitfield("u", "OVERFLOW", "SAT", "INCRBY", "u8", "0", "-300")).containsExactly(0L);
        assertThat(bitfield("s", "SET", "i8", "0", "127", "INCRBY", "i8", "0", "1")).containsExactly(0L, -128L);
        assertThat(bitfield("s", "OVERFLOW", "SAT", "INCRBY", "i8", "0", "-10")).containsExactly(-128L);
        assertThat(bitfield("s", "OVERFLOW", "SAT", "SET", "i8", "0", "1000")).containsExactly(-128L);
        assertThat(bitfield("s", "GET", "i8", "0")).containsExactly(127L);
        List<Long> failed = bitfield("s", "OVERFLOW", "FAIL", "INCRBY", "i8", "0", "1", "GET", "i8", "0");
        assertThat(failed).containsExactly(null, 127L);
        // FAIL still creates the key, padded to the farthest bit written, as Redis does.
        assertThat(Arrays.asList(bitfield("created", "OVERFLOW", "FAIL", "SET", "u2", "0", "10").toArray())).containsExactly((Object) null);
        assertThat(jedis.strlen("created")).isEqualTo(1);
    }

    @Test
    void argumentErrors() {
        assertThatThrownBy(() -> bitfield("k", "GET", "u64", "0"))
                .hasMessage("ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.");
        assertThatThrownBy(() -> bitfield("k", "GET", "i65", "0")).hasMessageStartingWith("ERR Invalid bitfield type");
        assertThatThrownBy(() -> bitfield("k", "GET", "x8", "0")).hasMessageStartingWith("ERR Invalid bitfield type");
        assertThatThrownBy(() -> bitfield("k", "GET", "i8", "-1")).hasMessage("ERR bit offset is not an integer or out of range");
        assertThatThrownBy(() -> bitfield("k", "OVERFLOW", "LOOP")).hasMessage("ERR Invalid OVERFLOW type specified");
        assertThatThrownBy(() -> bitfield("k", "GET", "i8")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> bitfield("k", "SET", "i8", "0", "x")).hasMessage("ERR value is not an integer or out of range");
        assertThat(jedis.exists("k")).isFalse();
    }

    @Test
    void bitfieldRoOnlyReads() {
        jedis.set("k", "A");
        assertThat(jedis.bitfieldReadonly("k", "GET", "u8", "0")).containsExactly(65L);
        assertThatThrownBy(() -> jedis.bitfieldReadonly("k", "SET", "u8", "0", "1"))
                .hasMessage("ERR BITFIELD_RO only supports the GET subcommand");
    }

    @Test
    void lcsStringLengthAndMatches() {
        jedis.set("key1", "ohmytext");
        jedis.set("key2", "mynewtext");
        assertThat(jedis.lcs("key1", "key2", LCSParams.LCSParams()).getMatchString()).isEqualTo("mytext");
        assertThat(jedis.lcs("key1", "key2", LCSParams.LCSParams().len()).getLen()).isEqualTo(6);
        LCSMatchResult idx = jedis.lcs("key1", "key2", LCSParams.LCSParams().idx().minMatchLen(4).withMatchLen());
        assertThat(idx.getLen()).isEqualTo(6);
        assertThat(idx.getMatches()).hasSize(1);
        assertThat(idx.getMatches().get(0).getA().getStart()).isEqualTo(4);
        assertThat(idx.getMatches().get(0).getA().getEnd()).isEqualTo(7);
        assertThat(idx.getMatches().get(0).getB().getStart()).isEqualTo(5);
        assertThat(idx.getMatches().get(0).getB().getEnd()).isEqualTo(8);
        assertThat(idx.getMatches().get(0).getMatchLen()).isEqualTo(4);
        assertThat(jedis.lcs("key1", "key2", LCSParams.LCSParams().idx()).getMatches()).hasSize(2);
        assertThat(jedis.lcs("key1", "missing", LCSParams.LCSParams()).getMatchString()).isEmpty();
    }

    @Test
    void lcsErrors() {
        jedis.set("a", "x");
        assertThatThrownBy(() -> jedis.lcs("a", "a", LCSParams.LCSParams().idx().len()))
                .hasMessage("ERR If you want both the length and indexes, please just use IDX.");
    }
}
