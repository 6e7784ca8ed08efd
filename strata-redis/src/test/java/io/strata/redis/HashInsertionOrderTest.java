package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * A small hash answers in insertion order, as a listpack-encoded Redis hash does, until a write
 * takes it past {@code hash-max-listpack-entries} or {@code hash-max-listpack-value}; then it
 * answers in field order for good ({@code HashObject}, "Small hashes keep insertion order").
 */
class HashInsertionOrderTest extends ServerTestSupport {

    /** HGETALL as the server sends it (a flat array in RESP2), pairs in order. */
    private List<String> hgetallRaw(String key) {
        return strings(jedis.sendCommand(Command.HGETALL, key));
    }

    /** HKEYS in the server's order (Jedis's {@code hkeys} answers a hash set). */
    private List<String> hkeys(String key) {
        return strings(jedis.sendCommand(Command.HKEYS, key));
    }

    private static List<String> strings(Object reply) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) reply) {
            out.add(new String((byte[]) o, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void aSmallHashAnswersInTheOrderItsFieldsWereAddedAndAnOverwriteKeepsItsPlace() {
        jedis.hset("h", "zebra", "1");
        jedis.sendCommand(Command.HSET, "h", "apple", "2", "mango", "3");
        jedis.hset("h", "banana", "4");
        jedis.hset("h", "apple", "22"); // overwrite: stays second

        assertThat(hkeys("h")).containsExactly("zebra", "apple", "mango", "banana");
        assertThat(jedis.hvals("h")).containsExactly("1", "22", "3", "4");
        assertThat(hgetallRaw("h")).containsExactly("zebra", "1", "apple", "22", "mango", "3", "banana", "4");
        assertThat(jedis.objectEncoding("h")).isEqualTo("listpack");

        ScanResult<java.util.Map.Entry<String, String>> scan = jedis.hscan("h", ScanParams.SCAN_POINTER_START);
        assertThat(scan.getCursor()).isEqualTo("0");
        assertThat(scan.getResult()).extracting(java.util.Map.Entry::getKey).containsExactly("zebra", "apple", "mango", "banana");
    }

    @Test
    void hdelTakesAFieldOutOfTheOrderAndAddingItAgainPutsItLast() {
        jedis.sendCommand(Command.HSET, "h", "c", "1", "a", "2", "b", "3");
        assertThat(jedis.hdel("h", "c", "missing")).isEqualTo(1);
        jedis.hset("h", "c", "4");
        jedis.hincrBy("h", "counter", 5); // HINCRBY of a new field adds it too
        jedis.hsetnx("h", "d", "6");
        assertThat(hkeys("h")).containsExactly("a", "b", "c", "counter", "d");
    }

    @Test
    void pastTheEntriesLimitAHashAnswersInFieldOrderForGood() {
        jedis.configSet("hash-max-listpack-entries", "4");
        jedis.sendCommand(Command.HSET, "h", "d", "1", "c", "2", "b", "3", "a", "4");
        assertThat(hkeys("h")).containsExactly("d", "c", "b", "a");
        assertThat(jedis.objectEncoding("h")).isEqualTo("listpack");

        jedis.hset("h", "e", "5");
        assertThat(jedis.objectEncoding("h")).isEqualTo("hashtable");
        assertThat(hkeys("h")).containsExactly("a", "b", "c", "d", "e");
        jedis.hdel("h", "a", "b", "c", "d");
        jedis.hset("h", "0", "x");
        assertThat(jedis.objectEncoding("h")).isEqualTo("hashtable"); // never converted back, as in Redis
        assertThat(hkeys("h")).containsExactly("0", "e");
    }

    @Test
    void aFieldOrValueLongerThanTheValueLimitMakesAHashTableEvenWhenCreated() {
        String long65 = "x".repeat(65);
        jedis.sendCommand(Command.HSET, "short", "b", "1", "a", "2");
        jedis.hset("short", "b", long65); // an overwrite past the limit converts too
        assertThat(jedis.objectEncoding("short")).isEqualTo("hashtable");
        assertThat(hkeys("short")).containsExactly("a", "b");

        jedis.sendCommand(Command.HSET, "created", "b", "1", long65, "2");
        assertThat(jedis.objectEncoding("created")).isEqualTo("hashtable");

        // Redis converts on the command's arguments (hashTypeTryConversion), before it sets
        // them: a long value that the same HSET overwrites still makes a hash table.
        jedis.sendCommand(Command.HSET, "overwritten", "f", long65, "f", "short");
        assertThat(jedis.objectEncoding("overwritten")).isEqualTo("hashtable");
        assertThat(jedis.hget("overwritten", "f")).isEqualTo("short");
        jedis.sendCommand(Command.HSET, "short2", "a", "1");
        jedis.sendCommand(Command.HSET, "short2", "a", long65, "a", "2");
        assertThat(jedis.objectEncoding("short2")).isEqualTo("hashtable");

        jedis.configSet("hash-max-listpack-value", "1000");
        jedis.sendCommand(Command.HSET, "big", "b", long65, "a", "1");
        assertThat(jedis.objectEncoding("big")).isEqualTo("listpack");
        assertThat(hkeys("big")).containsExactly("b", "a");
    }

    @Test
    void dumpRestoreAndCopyKeepTheOrderAndRestoreConvertsPastTheLimitsAsRedisLoadsIt() {
        jedis.sendCommand(Command.HSET, "h", "z", "1", "y", "2", "x", "3");
        byte[] dump = jedis.dump("h");
        jedis.restore("restored", 0, dump);
        assertThat(hkeys("restored")).containsExactly("z", "y", "x");
        assertThat(jedis.objectEncoding("restored")).isEqualTo("listpack");

        jedis.copy("h", "copied", false);
        jedis.hset("copied", "w", "4");
        assertThat(hkeys("copied")).containsExactly("z", "y", "x", "w");
        assertThat(hkeys("h")).containsExactly("z", "y", "x");

        jedis.configSet("hash-max-listpack-entries", "2");
        jedis.restore("converted", 0, dump);
        assertThat(jedis.objectEncoding("converted")).isEqualTo("hashtable");
        assertThat(hkeys("converted")).containsExactly("x", "y", "z");
    }

    @Test
    void insideMultiAReadSeesTheOrderOfTheTransactionsOwnWrites() {
        jedis.hset("h", "b", "1");
        Transaction t = jedis.multi();
        t.hset("h", "a", "2");
        t.hdel("h", "b");
        t.hset("h", "c", "3");
        t.hvals("h"); // a list in Jedis (its hkeys answers a hash set)
        List<Object> results = t.exec();
        assertThat(results.get(3)).isEqualTo(List.of("2", "3"));
    }
}
