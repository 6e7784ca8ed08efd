package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

import java.util.ArrayList;
import java.util.List;

/**
 * Keyspace notifications as Redis 7.0 publishes them, seen by a PSUBSCRIBE client over TCP:
 * each command family's events in order, the class filters, {@code new} and {@code keymiss},
 * expiry from access and from active expiry, and none for failed or discarded commands.
 * Expected sequences are what Redis 7.0.15 sends for the same commands.
 */
class KeyspaceNotificationsTest extends SharedServerTestSupport {
    private final List<RespClient> subscribers = new ArrayList<>();

    @AfterEach
    void quiet() throws Exception {
        for (RespClient c : subscribers) {
            c.close();
        }
        jedis.configSet("notify-keyspace-events", "");
        server.server.expiryCycle().setActive(true);
    }

    /** Enables {@code classes} and returns a client subscribed to every keyspace and keyevent channel. */
    private RespClient subscribe(String classes) throws Exception {
        jedis.configSet("notify-keyspace-events", classes);
        RespClient c = new RespClient(server.port());
        subscribers.add(c);
        assertThat(c.call("PSUBSCRIBE", "__key*__:*")).isEqualTo(List.of("psubscribe", "__key*__:*", 1L));
        return c;
    }

    /** The next {@code n} messages as "channel message". */
    private static List<String> next(RespClient c, int n) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<?> m = (List<?>) c.read();
            assertThat(m.get(0)).isEqualTo("pmessage");
            out.add(m.get(2) + " " + m.get(3));
        }
        return out;
    }

    /** Asserts the keyevent messages that follow, then that nothing else arrives. */
    private static void expectEvents(RespClient c, String... eventAndKey) throws Exception {
        List<String> expected = new ArrayList<>();
        for (String e : eventAndKey) {
            expected.add("__keyevent@0__:" + e);
        }
        assertThat(next(c, expected.size())).containsExactlyElementsOf(expected);
        assertThat(c.silentFor(150)).isTrue();
    }

    @Test
    void nothingIsPublishedByDefault() throws Exception {
        RespClient c = subscribe("");
        jedis.set("k", "v");
        jedis.del("k");
        assertThat(c.silentFor(200)).isTrue();
    }

    @Test
    void keyspaceChannelCarriesTheEventAndKeyeventChannelTheKey() throws Exception {
        RespClient c = subscribe("KEA");
        jedis.set("foo", "bar");
        assertThat(next(c, 2)).containsExactly("__keyspace@0__:foo set", "__keyevent@0__:set foo");
        jedis.select(3);
        jedis.lpush("l", "x");
        jedis.select(0);
        assertThat(next(c, 2)).containsExactly("__keyspace@3__:l lpush", "__keyevent@3__:lpush l");
    }

    @Test
    void restoreAndStreamCommands() throws Exception {
        jedis.set("s", "v");
        byte[] payload = jedis.dump("s");
        RespClient c = subscribe("EA");
        jedis.restore("r", 0, payload);
        jedis.restore("r", 1, payload, redis.clients.jedis.params.RestoreParams.restoreParams().replace().absTtl());
        expectEvents(c, "restore r", "del r");
        jedis.xadd("x", redis.clients.jedis.StreamEntryID.NEW_ENTRY, java.util.Map.of("f", "v"));
        jedis.xgroupCreate("x", "g", redis.clients.jedis.StreamEntryID.LAST_ENTRY, false);
        jedis.xgroupCreateConsumer("x", "g", "alice");
        jedis.xtrim("x", 0, false);
        expectEvents(c, "xadd x", "xgroup-create x", "xgroup-createconsumer x", "xtrim x");
    }

    @Test
    void stringCommands() throws Exception {
        RespClient c = subscribe("EA");
        jedis.set("s", "1", SetParams.setParams().ex(100));
        jedis.setrange("s", 0, "2");
        jedis.incrBy("s", 5);
        jedis.incrByFloat("s", 1.5);
        jedis.append("s", "0");
        jedis.mset("a", "1", "b", "2");
        jedis.getDel("a");
        jedis.getEx("b", redis.clients.jedis.params.GetExParams.getExParams().persist());
        expectEvents(c, "set s", "expire s", "setrange s", "incrby s", "incrbyfloat s", "append s",
                "set a", "set b", "del a");
        jedis.expire("b", 100);
        jedis.getEx("b", redis.clients.jedis.params.GetExParams.getExParams().persist());
        expectEvents(c, "expire b", "persist b");
    }

    @Test
    void genericCommands() throws Exception {
        RespClient c = subscribe("Eg");
        jedis.set("a", "1");
        jedis.expire("a", 100);
        jedis.persist("a");
        jedis.persist("a"); // no TTL left: no event
        jedis.rename("a", "b");
        jedis.copy("b", "c", false);
        jedis.del("b", "nope", "c");
        jedis.set("d", "1");
        jedis.pexpire("d", 0); // an expiry in the past deletes
        expectEvents(c, "expire a", "persist a", "rename_from a", "rename_to b", "copy_to c", "del b", "del c", "del d");
    }

    @Test
    void moveAndDelPublishInTheirDatabasesInOrder() throws Exception {
        RespClient c = subscribe("Eg");
        jedis.set("m", "1");
        jedis.move("m", 2);
        jedis.set("x", "1");
        jedis.set("y", "1");
        jedis.del("y", "nope", "x");
        assertThat(next(c, 4)).containsExactly("__keyevent@0__:move_from m", "__keyevent@2__:move_to m",
                "__keyevent@0__:del y", "__keyevent@0__:del x");
        jedis.set("d", "1");
        jedis.pexpire("d", 0);
        expectEvents(c, "del d");
    }

    @Test
    void listCommandsAndTheDeletionOfAnEmptiedList() throws Exception {
        RespClient c = subscribe("EA");
        jedis.lpush("l", "a", "b");
        jedis.rpush("l", "c");
        jedis.linsert("l", redis.clients.jedis.args.ListPosition.BEFORE, "c", "x");
        jedis.lset("l", 0, "q");
        jedis.lrem("l", 0, "nope"); // nothing removed: no event
        jedis.lrem("l", 1, "q");
        jedis.ltrim("l", 0, 1);
        jedis.lmove("l", "m", redis.clients.jedis.args.ListDirection.LEFT, redis.clients.jedis.args.ListDirection.RIGHT);
        jedis.rpop("l");
        expectEvents(c, "lpush l", "rpush l", "linsert l", "lset l", "lrem l", "ltrim l",
                "rpush m", "lpop l", "rpop l", "del l");
    }

    @Test
    void setCommands() throws Exception {
        RespClient c = subscribe("EA");
        jedis.sadd("s", "a", "b", "c");
        jedis.sadd("s", "a"); // nothing added: no event
        jedis.srem("s", "x"); // nothing removed: no event
        jedis.srem("s", "a");
        jedis.smove("s", "t", "b");
        jedis.sinterstore("u", "s", "t");
        jedis.sunionstore("u", "s", "t");
        jedis.spop("s");
        expectEvents(c, "sadd s", "srem s", "srem s", "sadd t", "sunionstore u", "spop s", "del s");
    }

    @Test
    void storeWithAnEmptyResultDeletesTheDestination() throws Exception {
        RespClient c = subscribe("EA");
        jedis.sadd("a", "1");
        jedis.sadd("d", "1");
        jedis.sinterstore("d", "a", "missing");
        jedis.sdiffstore("a", "a", "a");
        expectEvents(c, "sadd a", "sadd d", "del d", "del a");
    }

    @Test
    void hashCommands() throws Exception {
        RespClient c = subscribe("Eh");
        jedis.hset("h", "a", "1");
        jedis.hsetnx("h", "a", "2"); // present: no event
        jedis.hincrBy("h", "a", 2);
        jedis.hincrByFloat("h", "f", 1.5);
        jedis.hdel("h", "nope");
        jedis.hdel("h", "a", "f");
        assertThat(next(c, 4)).containsExactly("__keyevent@0__:hset h", "__keyevent@0__:hincrby h",
                "__keyevent@0__:hincrbyfloat h", "__keyevent@0__:hdel h");
        assertThat(c.silentFor(150)).isTrue(); // del is class g, filtered out here
    }

    @Test
    void sortedSetCommands() throws Exception {
        RespClient c = subscribe("EA");
        jedis.zadd("z", 1, "a");
        jedis.zadd("z", 1, "a"); // unchanged: no event
        jedis.zincrby("z", 2, "a");
        jedis.zadd("z", 5, "b");
        jedis.zrem("z", "nope");
        jedis.zremrangeByScore("z", 0, 4);
        jedis.zadd("z", 6, "c");
        jedis.zpopmin("z");
        jedis.zunionstore("u", "z");
        jedis.zpopmax("z");
        expectEvents(c, "zadd z", "zincr z", "zadd z", "zremrangebyscore z", "zadd z", "zpopmin z",
                "zunionstore u", "zpopmax z", "del z");
    }

    @Test
    void bitAndSortCommands() throws Exception {
        RespClient c = subscribe("EA");
        jedis.setbit("b", 7, true);
        jedis.setbit("b", 7, true); // unchanged: no event
        jedis.bitop(redis.clients.jedis.args.BitOP.OR, "d", "b");
        jedis.rpush("l", "2", "1");
        jedis.sort("l", "sorted");
        expectEvents(c, "setbit b", "set d", "rpush l", "sortstore sorted");
    }

    @Test
    void classFiltersSelectEventsAndNeedKOrE() throws Exception {
        RespClient c = subscribe("El");
        jedis.set("s", "v");
        jedis.lpush("l", "x");
        expectEvents(c, "lpush l");
        jedis.configSet("notify-keyspace-events", "K$");
        jedis.set("s", "w");
        jedis.lpush("l", "y");
        assertThat(next(c, 1)).containsExactly("__keyspace@0__:s set");
        // Classes without K or E publish nothing; K and E without classes neither.
        jedis.configSet("notify-keyspace-events", "A");
        jedis.set("s", "x");
        jedis.configSet("notify-keyspace-events", "KE");
        jedis.set("s", "y");
        assertThat(c.silentFor(200)).isTrue();
    }

    @Test
    void newIsPublishedOnlyWhenAKeyIsCreated() throws Exception {
        RespClient c = subscribe("En");
        jedis.set("foo", "bar");
        jedis.set("foo", "baz");
        jedis.set("bar", "bar");
        jedis.sadd("s", "m");
        jedis.sadd("s", "n");
        expectEvents(c, "new foo", "new bar", "new s");
    }

    @Test
    void keymissIsPublishedOnReadMissesOnly() throws Exception {
        RespClient c = subscribe("Em");
        jedis.get("nope");
        jedis.hget("nohash", "f");
        jedis.del("nope"); // a write's lookup: no keymiss
        jedis.set("k", "v");
        jedis.get("k");
        jedis.mget("k", "m1", "m2");
        expectEvents(c, "keymiss nope", "keymiss nohash", "keymiss m1", "keymiss m2");
    }

    @Test
    void configGetPrintsAsRedisYetNewStaysOn() throws Exception {
        jedis.configSet("notify-keyspace-events", "EAn");
        assertThat(jedis.configGet("notify-keyspace-events")).containsEntry("notify-keyspace-events", "AE");
        jedis.configSet("notify-keyspace-events", "$lshzxeKE");
        assertThat(jedis.configGet("notify-keyspace-events")).containsEntry("notify-keyspace-events", "$lshzxeKE");
        RespClient c = subscribe("EAn");
        jedis.set("k", "v");
        expectEvents(c, "new k", "set k");
    }

    @Test
    void configSetTakesEffectForOtherConnectionsAtOnce() throws Exception {
        RespClient c = subscribe("");
        try (redis.clients.jedis.Jedis other = server.jedis()) {
            other.set("before", "v");
            jedis.configSet("notify-keyspace-events", "E$");
            other.set("after", "v");
        }
        expectEvents(c, "set after");
    }

    @Test
    void expiredFromAWriteThatFindsTheKeyExpired() throws Exception {
        server.server.expiryCycle().setActive(false);
        RespClient c = subscribe("EAn");
        jedis.set("k", "v", SetParams.setParams().px(100));
        server.advanceMillis(1_000);
        jedis.set("k", "again");
        expectEvents(c, "new k", "set k", "expire k", "expired k", "new k", "set k");
    }

    @Test
    void expiredFromActiveExpiry() throws Exception {
        RespClient c = subscribe("Ex");
        jedis.set("k", "v", SetParams.setParams().px(100));
        jedis.set("other", "v");
        server.advanceMillis(1_000);
        expectEvents(c, "expired k");
    }

    @Test
    void noEventForAFailedCommand() throws Exception {
        jedis.set("str", "abc");
        RespClient c = subscribe("KEA");
        assertThatThrownBy(() -> jedis.lpush("str", "x")).isInstanceOf(JedisDataException.class);
        assertThatThrownBy(() -> jedis.incr("str")).isInstanceOf(JedisDataException.class);
        assertThatThrownBy(() -> jedis.rename("missing", "x")).isInstanceOf(JedisDataException.class);
        // A member too long for a key is refused before the new set is created.
        assertThatThrownBy(() -> jedis.zadd("z", 1, "m".repeat(20_000))).isInstanceOf(JedisDataException.class);
        assertThat(c.silentFor(200)).isTrue();
        assertThat(jedis.exists("z")).isFalse();
    }

    @Test
    void aDiscardedMultiPublishesNothingAndAnExecutedOnePublishesInOrder() throws Exception {
        RespClient c = subscribe("EA");
        Transaction discarded = jedis.multi();
        discarded.set("a", "1");
        discarded.discard();
        assertThat(c.silentFor(150)).isTrue();

        Transaction multi = jedis.multi();
        multi.set("a", "1");
        multi.lpush("l", "x");
        multi.expire("a", 100);
        multi.del("l");
        multi.exec();
        expectEvents(c, "set a", "lpush l", "expire a", "del l");
    }

    @Test
    void aFailingExecPublishesNothing() throws Exception {
        RespClient c = subscribe("EA");
        try (redis.clients.jedis.Jedis other = server.jedis()) {
            jedis.watch("w");
            Transaction multi = jedis.multi();
            multi.set("a", "1");
            other.set("w", "changed");
            assertThat(multi.exec()).isNull();
        }
        expectEvents(c, "set w");
    }

    /** PFADD notifies only when it changes the value; PFMERGE notifies {@code pfadd}; PFCOUNT and PFDEBUG nothing. */
    @Test
    void hyperLogLogCommandsPublishAsRedis() throws Exception {
        RespClient c = subscribe("Emn$");
        jedis.pfadd("h", "a");
        jedis.pfadd("h", "a");
        jedis.pfcount("h");
        jedis.pfmerge("d", "h", "nosuch");
        jedis.pfcount("h", "nosuch2");
        jedis.sendCommand(() -> "PFDEBUG".getBytes(), "TODENSE", "h");
        jedis.pfadd("h");
        expectEvents(c, "new h", "pfadd h", "keymiss d", "keymiss nosuch", "new d", "pfadd d", "keymiss nosuch2");
    }
}
