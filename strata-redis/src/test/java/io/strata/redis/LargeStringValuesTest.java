package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Strings larger than one FoundationDB transaction (10 MB), up to a 100 MB value: staged
 * before their command and switched in by it, edited in place by APPEND, SETRANGE and SETBIT,
 * read in ranges by GETRANGE, GETBIT and STRLEN. Nothing staged outlives its command.
 */
class LargeStringValuesTest extends SharedServerTestSupport {
    private static final int LARGE = 12_000_000;
    private static final byte[] KEY = bytes("big");

    @Test
    void aHundredMegabyteValueIsStoredAndReadWhole() {
        byte[] value = randomBytes(100 * 1024 * 1024, 1);
        assertThat(jedis.set(KEY, value)).isEqualTo("OK");
        assertThat(jedis.strlen(KEY)).isEqualTo(value.length);
        assertThat(jedis.get(KEY)).isEqualTo(value);
        assertThat(jedis.getrange(KEY, 50_000_000, 50_000_099)).isEqualTo(Arrays.copyOfRange(value, 50_000_000, 50_000_100));
        assertThat(jedis.getrange(KEY, -10, -1)).isEqualTo(Arrays.copyOfRange(value, value.length - 10, value.length));
    }

    @Test
    void replacingALargeValueLeavesOnlyTheNewOne() {
        jedis.set(KEY, randomBytes(LARGE, 2));
        long withOne = server.storedBytes();
        byte[] second = randomBytes(LARGE, 3);
        jedis.set(KEY, second);
        assertThat(jedis.get(KEY)).isEqualTo(second);
        assertThat(server.storedBytes()).isBetween(withOne - 100_000, withOne + 100_000);
        jedis.del(KEY);
        assertThat(server.storedBytes()).isLessThan(100_000);
    }

    @Test
    void aRefusedSetStoresNothingAndTheOptionsStillApply() {
        jedis.set(KEY, bytes("small"));
        byte[] large = randomBytes(LARGE, 4);
        assertThat(jedis.set(KEY, large, SetParams.setParams().nx())).isNull();
        assertThat(jedis.get(KEY)).isEqualTo(bytes("small"));
        assertThat(server.storedBytes()).isLessThan(100_000);

        assertThat(jedis.setGet(KEY, large, SetParams.setParams().xx().ex(100))).isEqualTo(bytes("small"));
        assertThat(jedis.ttl(KEY)).isBetween(99L, 100L);
        assertThat(jedis.get(KEY)).isEqualTo(large);
        assertThat(jedis.getSet(KEY, bytes("again"))).isEqualTo(large);
        assertThat(server.storedBytes()).isLessThan(100_000);
    }

    @Test
    void msetAndSetexStoreSeveralLargeValuesAtomically() {
        byte[] a = randomBytes(LARGE, 5);
        byte[] b = randomBytes(LARGE, 6);
        assertThat(jedis.mset(bytes("a"), a, bytes("s"), bytes("x"), bytes("b"), b)).isEqualTo("OK");
        assertThat(jedis.mget(bytes("a"), bytes("s"), bytes("b"))).containsExactly(a, bytes("x"), b);
        assertThat(jedis.msetnx(bytes("c"), a, bytes("a"), b)).isZero();
        assertThat(jedis.exists(bytes("c"))).isFalse();
        assertThat(jedis.setex(bytes("e"), 50, b)).isEqualTo("OK");
        assertThat(jedis.get(bytes("e"))).isEqualTo(b);
        jedis.del(bytes("a"), bytes("b"), bytes("e"));
        assertThat(server.storedBytes()).isLessThan(100_000);
    }

    @Test
    void aLargeValueInsideMultiExec() {
        byte[] value = randomBytes(LARGE, 7);
        Transaction multi = jedis.multi();
        multi.set(KEY, value);
        multi.append(KEY, bytes("tail"));
        multi.strlen(KEY);
        List<Object> replies = multi.exec();
        assertThat(replies).containsExactly("OK", (long) LARGE + 4, (long) LARGE + 4);
        assertThat(jedis.getrange(KEY, LARGE - 2, -1)).isEqualTo(concat(Arrays.copyOfRange(value, LARGE - 2, LARGE), bytes("tail")));
    }

    @Test
    void appendSetrangeAndSetbitEditALargeValueInPlace() {
        byte[] value = randomBytes(LARGE, 8);
        jedis.set(KEY, value);
        assertThat(jedis.append(KEY, bytes("!"))).isEqualTo(LARGE + 1);
        assertThat(jedis.setrange(KEY, 5, bytes("hello"))).isEqualTo(LARGE + 1);
        assertThat(jedis.getrange(KEY, 5, 9)).isEqualTo(bytes("hello"));
        // Past the end: zero padding, not stored.
        long far = 300_000_000;
        assertThat(jedis.setrange(KEY, far, bytes("end"))).isEqualTo(far + 3);
        assertThat(jedis.strlen(KEY)).isEqualTo(far + 3);
        assertThat(jedis.getrange(KEY, far - 2, -1)).isEqualTo(new byte[] {0, 0, 'e', 'n', 'd'});
        assertThat(server.storedBytes()).isLessThan(LARGE + 200_000);

        assertThat(jedis.setbit(KEY, 8 * (far + 3) + 7, true)).isFalse();
        assertThat(jedis.getbit(KEY, 8 * (far + 3) + 7)).isTrue();
        assertThat(jedis.strlen(KEY)).isEqualTo(far + 4);
        assertThat(jedis.setbit(KEY, 8 * (far + 3) + 7, false)).isTrue();
        assertThat(jedis.getbit(KEY, 8L * 4_000_000_000L / 8)).isFalse();
    }

    @Test
    void setbitAndSetrangeFarOutCreateALargeValueWithoutStoringItsZeros() {
        assertThat(jedis.setbit(bytes("bits"), 4_000_000_000L, true)).isFalse();
        assertThat(jedis.strlen(bytes("bits"))).isEqualTo(500_000_001L);
        assertThat(jedis.getbit(bytes("bits"), 4_000_000_000L)).isTrue();
        assertThat(jedis.setrange(bytes("short"), 20_000_000, bytes("x"))).isEqualTo(20_000_001L);
        assertThat(server.storedBytes()).isLessThan(200_000);
    }

    @Test
    void aStringBeyondFiveHundredTwelveMegabytesIsRefusedAsRedisRefusesIt() {
        jedis.setrange(KEY, 536_870_800, bytes("x"));
        assertThatThrownBy(() -> jedis.append(KEY, new byte[200]))
                .isInstanceOf(JedisDataException.class)
                .hasMessage("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
        assertThatThrownBy(() -> jedis.setrange(KEY, 536_870_912, bytes("x")))
                .isInstanceOf(JedisDataException.class)
                .hasMessage("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
    }

    @Test
    void copyAndMoveOfALargeValueAreStagedAndTakenWhole() {
        byte[] value = randomBytes(LARGE, 11);
        jedis.set(KEY, value);
        long one = server.storedBytes();
        assertThat(jedis.copy(KEY, bytes("copy"), false)).isTrue();
        assertThat(jedis.get(bytes("copy"))).isEqualTo(value);
        assertThat(server.storedBytes()).as("one more copy of the value").isBetween(2 * one - 1_000, 2 * one + 1_000);

        // Not taken (the destination exists, no REPLACE): the staged copy is cleared again.
        assertThat(jedis.copy(KEY, bytes("copy"), false)).isFalse();
        assertThat(server.storedBytes()).isBetween(2 * one - 1_000, 2 * one + 1_000);

        assertThat(jedis.move(KEY, 1)).isEqualTo(1);
        assertThat(jedis.exists(KEY)).isFalse();
        jedis.select(1);
        try {
            assertThat(jedis.get(KEY)).isEqualTo(value);
        } finally {
            jedis.select(0);
        }
        assertThat(server.storedBytes()).as("moved, not copied").isBetween(2 * one - 1_000, 2 * one + 1_000);
    }

    @Test
    void aLargeValueMovesThroughDumpAndRestore() {
        byte[] value = randomBytes(20_000_000, 10);
        jedis.set(KEY, value);
        byte[] payload = jedis.dump(KEY);
        assertThat(payload.length).isGreaterThan(value.length);
        assertThat(jedis.restore(bytes("copy"), 0, payload)).isEqualTo("OK");
        assertThat(jedis.get(bytes("copy"))).isEqualTo(value);
        assertThatThrownBy(() -> jedis.restore(bytes("copy"), 0, payload))
                .isInstanceOf(JedisDataException.class)
                .hasMessage("BUSYKEY Target key name already exists.");
        jedis.del(KEY, bytes("copy"));
        assertThat(server.storedBytes()).as("the refused RESTORE's staging is gone too").isLessThan(100_000);
    }

    @Test
    void otherClientsAreServedWhileALargeValueIsStaged() throws Exception {
        byte[] value = randomBytes(60 * 1024 * 1024, 9);
        Thread writer = new Thread(() -> {
            try (Jedis other = server.jedis()) {
                other.set(KEY, value);
            }
        });
        writer.start();
        try (Jedis reader = server.jedis()) {
            for (int i = 0; i < 20; i++) {
                reader.set("k" + i, "v" + i);
                byte[] seen = reader.get(KEY);
                assertThat(seen == null || Arrays.equals(seen, value)).as("never a partial value").isTrue();
            }
        }
        writer.join();
        assertThat(jedis.get(KEY)).isEqualTo(value);
    }

    /** Bytes of every value in the database: staged or orphaned chunks would show here. */

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
