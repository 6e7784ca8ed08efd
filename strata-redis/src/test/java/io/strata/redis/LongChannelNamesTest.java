package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Regression: a subscription's count is a database key, and FoundationDB keys are at most
 * 10,000 bytes, so SUBSCRIBE / PSUBSCRIBE / SSUBSCRIBE of a longer name answered
 * {@code ERR database error 2102: Key length exceeds limit}. Redis 7.0 takes names of any
 * length; long names are now counted under a bounded id and listed by their full name.
 */
class LongChannelNamesTest {
    private RunningServer server;
    private Jedis jedis;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start();
        jedis = server.jedis();
    }

    @AfterEach
    void stop() {
        jedis.close();
        server.close();
    }

    private RespClient client() throws Exception {
        return new RespClient(server.port());
    }

    @Test
    void aChannelOf20000BytesAndOneOf200000BytesAreSubscribedCountedListedAndLeft() throws Exception {
        String mid = text(20_000, 1);
        String huge = text(200_000, 2);
        try (RespClient c = client()) {
            c.send("SUBSCRIBE", mid, huge);
            assertThat(shown(c.read())).isEqualTo(shown(List.of("subscribe", mid, 1L)));
            assertThat(shown(c.read())).isEqualTo(shown(List.of("subscribe", huge, 2L)));

            assertThat(jedis.publish(mid, "to-mid")).isEqualTo(1);
            assertThat(jedis.publish(huge, "to-huge")).isEqualTo(1);
            assertThat(shown(c.read())).isEqualTo(shown(List.of("message", mid, "to-mid")));
            assertThat(shown(c.read())).isEqualTo(shown(List.of("message", huge, "to-huge")));
            assertThat(jedis.pubsubNumSub(mid, huge, text(20_000, 3)))
                    .containsEntry(mid, 1L).containsEntry(huge, 1L).containsEntry(text(20_000, 3), 0L);
            assertThat(jedis.pubsubChannels()).containsExactlyInAnyOrder(mid, huge);
            assertThat(jedis.pubsubChannels(huge.substring(0, 5000) + "*")).containsExactly(huge);

            assertThat(shown(c.call("UNSUBSCRIBE", mid))).isEqualTo(shown(List.of("unsubscribe", mid, 1L)));
            assertThat(jedis.pubsubNumSub(mid)).containsEntry(mid, 0L);
            assertThat(jedis.pubsubChannels()).containsExactly(huge);
            assertThat(jedis.publish(mid, "gone")).isZero();

            assertThat(shown(c.call("UNSUBSCRIBE"))).isEqualTo(shown(List.of("unsubscribe", huge, 0L)));
            assertThat(jedis.pubsubNumSub(huge)).containsEntry(huge, 0L);
            assertThat(jedis.pubsubChannels()).isEmpty();
            assertThat(jedis.publish(huge, "gone")).isZero();
            assertThat(c.silentFor(200)).isTrue();
        }
    }

    @Test
    void aLongPatternMatchesAndIsCounted() throws Exception {
        String head = text(30_000, 4);
        String channel = head + "-tail";
        try (RespClient c = client()) {
            assertThat(shown(c.call("PSUBSCRIBE", head + "*"))).isEqualTo(shown(List.of("psubscribe", head + "*", 1L)));
            assertThat(jedis.pubsubNumPat()).isEqualTo(1);
            assertThat(jedis.publish(channel, "hello")).isEqualTo(1);
            assertThat(shown(c.read())).isEqualTo(shown(List.of("pmessage", head + "*", channel, "hello")));
            assertThat(jedis.publish("short", "x")).as("a long pattern does not match a short channel").isZero();
            // A pattern's count is not a channel's.
            assertThat(jedis.pubsubChannels()).isEmpty();

            assertThat(shown(c.call("PUNSUBSCRIBE", head + "*"))).isEqualTo(shown(List.of("punsubscribe", head + "*", 0L)));
            assertThat(jedis.pubsubNumPat()).isZero();
            assertThat(jedis.publish(channel, "gone")).isZero();
            assertThat(c.silentFor(200)).isTrue();
        }
    }

    @Test
    void aLongShardChannel() throws Exception {
        String shard = text(50_000, 5);
        try (RespClient c = client(); RespClient publisher = client()) {
            assertThat(shown(c.call("SSUBSCRIBE", shard))).isEqualTo(shown(List.of("ssubscribe", shard, 1L)));
            assertThat(publisher.call("SPUBLISH", shard, "hi")).isEqualTo(1L);
            assertThat(shown(c.read())).isEqualTo(shown(List.of("smessage", shard, "hi")));
            assertThat(shown(publisher.call("PUBSUB", "SHARDNUMSUB", shard))).isEqualTo(shown(List.of(shard, 1L)));
            assertThat(shown(publisher.call("PUBSUB", "SHARDCHANNELS"))).isEqualTo(shown(List.of(shard)));
            assertThat(publisher.call("PUBSUB", "CHANNELS")).as("shard channels are their own namespace").isEqualTo(List.of());
            assertThat(jedis.publish(shard, "not a shard message")).isZero();

            assertThat(shown(c.call("SUNSUBSCRIBE", shard))).isEqualTo(shown(List.of("sunsubscribe", shard, 0L)));
            assertThat(shown(publisher.call("PUBSUB", "SHARDNUMSUB", shard))).isEqualTo(shown(List.of(shard, 0L)));
            assertThat(shown(publisher.call("PUBSUB", "SHARDCHANNELS"))).isEqualTo(shown(List.of()));
        }
    }

    @Test
    void twoLongNamesThatShareTheirFirst10000BytesAreCountedApart() throws Exception {
        String common = text(10_000, 6);
        String a = common + "a" + text(5_000, 7);
        String b = common + "b" + text(5_000, 7);
        try (RespClient c1 = client(); RespClient c2 = client(); RespClient c3 = client()) {
            c1.call("SUBSCRIBE", a);
            c2.call("SUBSCRIBE", b);
            c3.call("SUBSCRIBE", a);
            assertThat(jedis.pubsubNumSub(a, b)).containsEntry(a, 2L).containsEntry(b, 1L);
            assertThat(jedis.pubsubChannels()).containsExactlyInAnyOrder(a, b);
            assertThat(jedis.publish(a, "for-a")).isEqualTo(2);
            assertThat(jedis.publish(b, "for-b")).isEqualTo(1);
            assertThat(shown(c1.read())).isEqualTo(shown(List.of("message", a, "for-a")));
            assertThat(shown(c3.read())).isEqualTo(shown(List.of("message", a, "for-a")));
            assertThat(shown(c2.read())).isEqualTo(shown(List.of("message", b, "for-b")));

            c1.call("UNSUBSCRIBE", a);
            assertThat(jedis.pubsubNumSub(a, b)).containsEntry(a, 1L).containsEntry(b, 1L);
            c3.call("UNSUBSCRIBE", a);
            assertThat(jedis.pubsubNumSub(a, b)).containsEntry(a, 0L).containsEntry(b, 1L);
            assertThat(jedis.pubsubChannels()).as("b's name outlives a's").containsExactly(b);
            assertThat(jedis.publish(b, "still")).isEqualTo(1);
            assertThat(shown(c2.read())).isEqualTo(shown(List.of("message", b, "still")));
            assertThat(c1.silentFor(100)).isTrue();
            assertThat(c3.silentFor(100)).isTrue();
        }
    }

    @Test
    void namesAroundTheKeyLimitAllWork() throws Exception {
        // About 9,980 bytes is the last name kept as itself; every length around it works.
        List<String> names = new ArrayList<>();
        for (int n = 9_900; n <= 10_010; n += 5) {
            names.add(text(n, n));
        }
        try (RespClient c = client()) {
            c.send(command("SUBSCRIBE", names));
            for (int i = 0; i < names.size(); i++) {
                assertThat(shown(c.read())).isEqualTo(shown(List.of("subscribe", names.get(i), i + 1L)));
            }
            for (String n : names) {
                assertThat(jedis.publish(n, "m")).as("%d bytes", n.length()).isEqualTo(1);
                assertThat(shown(c.read())).isEqualTo(shown(List.of("message", n, "m")));
            }
            assertThat(jedis.pubsubChannels()).containsExactlyInAnyOrderElementsOf(names);
            c.send("UNSUBSCRIBE");
            for (int i = 0; i < names.size(); i++) {
                c.read();
            }
            assertThat(jedis.pubsubChannels()).isEmpty();
        }
    }

    @Test
    void closingTheConnectionTakesALongSubscriptionAndItsNameAway() throws Exception {
        String name = text(40_000, 8);
        long empty = server.storedBytes();
        RespClient c = client();
        c.call("SUBSCRIBE", name);
        c.call("PSUBSCRIBE", name + "*");
        assertThat(server.storedBytes()).as("both names kept for listing").isGreaterThan(empty + 80_000);
        c.close();
        long deadline = System.currentTimeMillis() + 5_000;
        while (jedis.pubsubNumPat() != 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(jedis.pubsubNumSub(name)).containsEntry(name, 0L);
        assertThat(jedis.pubsubChannels()).isEmpty();
        assertThat(server.storedBytes()).as("the names are cleared with their counts").isLessThan(empty + 1_000);
        assertThat(jedis.publish(name, "x")).isZero();
    }

    @Test
    void namesThatTakeMoreThanOneTransactionAreSubscribedInSeveral() throws Exception {
        List<String> names = List.of(text(4_000_000, 9), text(4_000_000, 10), text(4_000_000, 11));
        try (RespClient c = client()) {
            c.send(command("SUBSCRIBE", names));
            for (int i = 0; i < names.size(); i++) {
                assertThat(shown(c.read())).isEqualTo(shown(List.of("subscribe", names.get(i), i + 1L)));
            }
            for (String n : names) {
                assertThat(jedis.publish(n, "m")).isEqualTo(1);
                assertThat(shown(c.read())).isEqualTo(shown(List.of("message", n, "m")));
            }
            assertThat(shown(new TreeSet<>(jedis.pubsubChannels()))).isEqualTo(shown(new TreeSet<>(names)));
            c.send("UNSUBSCRIBE");
            for (int i = 0; i < names.size(); i++) {
                assertThat(((List<?>) c.read()).get(2)).isEqualTo(2L - i);
            }
            assertThat(jedis.pubsubChannels()).isEmpty();
        }
    }

    @Test
    void threeHundredNamesOf9000BytesInOneSubscribe() throws Exception {
        // Short names, but their keys together are more than one transaction carries.
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            names.add(text(9_000, 100 + i));
        }
        try (RespClient c = client()) {
            c.send(command("SUBSCRIBE", names));
            for (int i = 0; i < names.size(); i++) {
                assertThat(shown(c.read())).isEqualTo(shown(List.of("subscribe", names.get(i), i + 1L)));
            }
            assertThat(jedis.publish(names.get(299), "m")).isEqualTo(1);
            assertThat(jedis.pubsubChannels()).hasSize(300);
            c.send("UNSUBSCRIBE");
            for (int i = 0; i < names.size(); i++) {
                c.read();
            }
            assertThat(jedis.pubsubChannels()).isEmpty();
        }
    }

    @Test
    void aNameLongerThanASubscriptionKeepsIsRefusedAndNothingChanges() throws Exception {
        String tooLong = text(9_000_001, 12);
        try (RespClient c = client()) {
            Object reply = c.call("SUBSCRIBE", "ok", tooLong);
            assertThat(reply).isInstanceOf(RespClient.Error.class);
            assertThat(((RespClient.Error) reply).message()).startsWith("ERR channel name too long");
            assertThat(jedis.pubsubChannels()).isEmpty();
            assertThat(c.call("PING")).as("still an ordinary connection").isEqualTo("PONG");
            assertThat(shown(c.call("SUBSCRIBE", text(9_000_000, 13)))).isEqualTo(shown(List.of("subscribe", text(9_000_000, 13), 1L)));
        }
    }

    @Test
    void keyspaceNotificationsOfAKeyNearTheLimitReachAChannelSubscriber() throws Exception {
        String key = text(9_980, 14);
        String channel = "__keyspace@0__:" + key;
        jedis.configSet("notify-keyspace-events", "KA");
        try (RespClient c = client()) {
            assertThat(shown(c.call("SUBSCRIBE", channel))).isEqualTo(shown(List.of("subscribe", channel, 1L)));
            jedis.set(key, "v");
            assertThat(shown(c.read())).isEqualTo(shown(List.of("message", channel, "set")));
            assertThat(jedis.pubsubChannels("__keyspace@0__:*")).containsExactly(channel);
        }
    }

    /** {@code value} with every string over 100 characters shown by length and digest, so a failure prints a readable message. */
    private static Object shown(Object value) {
        if (value instanceof String s && s.length() > 100) {
            return s.substring(0, 20) + "...<" + s.length() + " chars, sha-256 " + sha256(s) + ">";
        }
        if (value instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>();
            for (Object o : c) {
                out.add(shown(o));
            }
            return out;
        }
        return value;
    }

    private static String sha256(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static String[] command(String name, List<String> args) {
        String[] c = new String[args.size() + 1];
        c[0] = name;
        for (int i = 0; i < args.size(); i++) {
            c[i + 1] = args.get(i);
        }
        return c;
    }

    /** {@code n} random letters, the same for the same seed. */
    private static String text(int n, long seed) {
        Random random = new Random(seed);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(c);
    }
}
