package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * SET's and GETEX's options read as Redis 7.0.15's {@code parseExtendedStringArgumentsOrReply}
 * reads them, and their errors in Redis's order; regressions from a differential fuzzer that
 * compared Strata with Redis 7.0.15 (each expectation is Redis's answer).
 */
class SetAndGetexOptionsTest extends ServerTestSupport {
    private static final String SYNTAX = "ERR syntax error";
    private static final String NOT_INTEGER = "ERR value is not an integer or out of range";

    private Object call(String... args) {
        return Raw.call(jedis, args);
    }

    @Test
    void aRepeatedSetExpiryOptionTakesTheLastValue() {
        assertThat(call("SET", "k", "w", "EX", "5", "EX", "100")).isEqualTo("OK");
        assertThat(jedis.ttl("k")).isEqualTo(100);
        assertThat(call("SET", "k", "w", "PXAT", "1", "PXAT", Long.toString(server.clock.get() + 50_000))).isEqualTo("OK");
        assertThat(jedis.ttl("k")).isEqualTo(50);
    }

    @Test
    void anExpiryValueReplacedByALaterOneIsNeverParsed() {
        assertThat(call("SET", "k", "x", "EX", "abc", "EX", "6")).isEqualTo("OK");
        assertThat(jedis.ttl("k")).isEqualTo(6);
        assertThat(call("SET", "k", "x", "PX", "-1", "PX", "7000")).isEqualTo("OK");
        assertThat(jedis.ttl("k")).isEqualTo(7);
    }

    @Test
    void repeatedFlagsAreAccepted() {
        jedis.set("k", "old");
        assertThat(call("SET", "k", "v", "KEEPTTL", "KEEPTTL", "XX", "XX", "GET", "GET")).isEqualTo("old");
        assertThat(jedis.get("k")).isEqualTo("v");
    }

    @Test
    void differentExpiryOptionsAndContradictionsAreSyntaxErrors() {
        for (String[] cmd : new String[][] {
                {"SET", "k", "v", "EX", "5", "PX", "5"},
                {"SET", "k", "v", "EXAT", "5", "EX", "5"},
                {"SET", "k", "v", "KEEPTTL", "EX", "5"},
                {"SET", "k", "v", "EX", "5", "KEEPTTL"},
                {"SET", "k", "v", "NX", "XX"},
                {"SET", "k", "v", "EX"},
                {"SET", "k", "v", "PERSIST"},
                {"GETEX", "k", "KEEPTTL"},
                {"GETEX", "k", "NX"},
                {"GETEX", "k", "PERSIST", "EX", "5"},
                {"GETEX", "k", "EX", "5", "PERSIST"},
                {"GETEX", "k", "PX"}}) {
            assertThatThrownBy(() -> call(cmd)).as(Arrays.toString(cmd)).hasMessage(SYNTAX);
        }
    }

    @Test
    void setChecksTheWholeSyntaxBeforeParsingTheExpiry() {
        // The expiry option swallows the next word whatever it is; the syntax error comes later.
        assertThatThrownBy(() -> call("SET", "k", "v", "EX", "XX", "9223372036854775807")).hasMessage(SYNTAX);
        assertThatThrownBy(() -> call("SET", "k", "v", "PX", "abc", "junk")).hasMessage(SYNTAX);
        assertThatThrownBy(() -> call("SET", "k", "d", "EX", "abc", "XX", "EX")).hasMessage(SYNTAX);
        // Well-formed: the last expiry's value is parsed, and fails.
        assertThatThrownBy(() -> call("SET", "k", "x", "EX", "-1", "NX", "GET", "EX", "nan")).hasMessage(NOT_INTEGER);
        assertThat(jedis.exists("k")).isFalse();
    }

    @Test
    void setChecksTheExpiryBeforeGetsTypeCheck() {
        jedis.lpush("l", "a");
        assertThatThrownBy(() -> call("SET", "l", "v", "GET", "EX", "0")).hasMessage("ERR invalid expire time in 'set' command");
        assertThatThrownBy(() -> call("SET", "l", "v", "GET", "EX", "x")).hasMessage(NOT_INTEGER);
        assertThatThrownBy(() -> call("SET", "l", "v", "GET", "EX", "10")).hasMessageStartingWith("WRONGTYPE");
    }

    @Test
    void optionWordsAreMatchedUpToTheirFirstNulAsRedisDoes() {
        assertThat(call("SET", "k", "v", "ex\0junk", "100")).isEqualTo("OK");
        assertThat(jedis.ttl("k")).isEqualTo(100);
        assertThatThrownBy(() -> call("SET", "k", "v", "EXX", "100")).hasMessage(SYNTAX);
        // Upper-casing outside ASCII does not make an option word (Java upper-cases "ſ" to "S").
        assertThatThrownBy(() -> call("GETEX", "k", "PERſIST")).hasMessage(SYNTAX);
    }

    @Test
    void aRepeatedGetexExpiryOptionTakesTheLastValue() {
        jedis.set("k", "v");
        assertThat(call("GETEX", "k", "PX", "5000", "PX", "100000")).isEqualTo("v");
        assertThat(jedis.pttl("k")).isEqualTo(100_000);
        assertThat(call("GETEX", "k", "EX", "abc", "EX", "9")).isEqualTo("v");
        assertThat(jedis.ttl("k")).isEqualTo(9);
        assertThat(call("GETEX", "k", "PERSIST", "PERSIST")).isEqualTo("v");
        assertThat(jedis.ttl("k")).isEqualTo(-1);
    }

    @Test
    void getexOnAMissingKeyIsNilWhateverTheExpiryValue() {
        for (String[] opt : new String[][] {{"EX", "0"}, {"PXAT", "-1"}, {"EXAT", "-1"}, {"EX", "abc"},
                {"PX", "9223372036854775807"}}) {
            assertThat(call("GETEX", "nokey", opt[0], opt[1])).as(Arrays.toString(opt)).isNull();
        }
        assertThat(jedis.exists("nokey")).isFalse();
    }

    @Test
    void getexChecksTheTypeBeforeTheExpiryValue() {
        jedis.lpush("l", "a");
        assertThatThrownBy(() -> call("GETEX", "l", "PX", "x")).hasMessageStartingWith("WRONGTYPE");
        assertThatThrownBy(() -> call("GETEX", "l", "EX", "0")).hasMessageStartingWith("WRONGTYPE");
    }

    @Test
    void getexOnAStringChecksTheExpiryValueAndLeavesTheKeyAlone() {
        jedis.set("k", "v");
        jedis.expire("k", 50);
        assertThatThrownBy(() -> call("GETEX", "k", "EX", "0")).hasMessage("ERR invalid expire time in 'getex' command");
        assertThatThrownBy(() -> call("GETEX", "k", "EX", "abc")).hasMessage(NOT_INTEGER);
        assertThatThrownBy(() -> call("GETEX", "k", "EX", "9223372036854776")).hasMessage("ERR invalid expire time in 'getex' command");
        assertThat(jedis.ttl("k")).isEqualTo(50);
        assertThat(jedis.get("k")).isEqualTo("v");
    }

    @Test
    void getexWithAPastAbsoluteTimeAnswersTheValueAndDeletesTheKey() {
        jedis.set("k", "v");
        assertThat(call("GETEX", "k", "PXAT", "1")).isEqualTo("v");
        assertThat(jedis.exists("k")).isFalse();
    }

    @Test
    void theSameOrderHoldsInsideMultiExec() throws Exception {
        jedis.lpush("l", "a");
        jedis.set("k", "v");
        try (RespClient c = new RespClient(server.port())) {
            assertThat(c.call("MULTI")).isEqualTo("OK");
            assertThat(c.call("GETEX", "nokey", "EX", "0")).isEqualTo("QUEUED");
            assertThat(c.call("GETEX", "l", "PX", "x")).isEqualTo("QUEUED");
            assertThat(c.call("GETEX", "k", "PX", "1", "PX", "30000")).isEqualTo("QUEUED");
            assertThat(c.call("SET", "s", "v", "EX", "1", "EX", "20")).isEqualTo("QUEUED");
            assertThat(c.call("SET", "s2", "v", "EX", "XX", "1")).isEqualTo("QUEUED");
            assertThat(c.call("EXEC")).isEqualTo(Arrays.asList(null,
                    new RespClient.Error("WRONGTYPE Operation against a key holding the wrong kind of value"),
                    "v", "OK", new RespClient.Error(SYNTAX)));
        }
        assertThat(jedis.pttl("k")).isEqualTo(30_000);
        assertThat(jedis.ttl("s")).isEqualTo(20);
    }
}
