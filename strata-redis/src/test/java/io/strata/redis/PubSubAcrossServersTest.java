package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.server.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Two server processes on one database (two servers on one in-memory engine): each delivers
 * the other's messages, both count every subscriber, and both see one publish order.
 */
class PubSubAcrossServersTest {
    private RunningServer first;
    private RedisServer second;
    private Jedis onFirst;
    private Jedis onSecond;

    @BeforeEach
    void start() throws Exception {
        first = RunningServer.start();
        second = RedisServer.start(first.database, RedisConfig.defaults().withPort(0));
        onFirst = first.jedis();
        onSecond = new Jedis("127.0.0.1", second.port(), 10_000);
    }

    @AfterEach
    void stop() {
        onFirst.close();
        onSecond.close();
        second.close();
        first.close();
    }

    @Test
    void eachServerDeliversTheOthersMessagesAndCountsItsSubscribers() throws Exception {
        try (RespClient a = new RespClient(first.port()); RespClient b = new RespClient(second.port())) {
            a.call("SUBSCRIBE", "ch");
            b.call("PSUBSCRIBE", "c*");
            assertThat(onSecond.publish("ch", "from-second")).isEqualTo(2);
            assertThat(onFirst.publish("ch", "from-first")).isEqualTo(2);
            assertThat(a.read()).isEqualTo(List.of("message", "ch", "from-second"));
            assertThat(a.read()).isEqualTo(List.of("message", "ch", "from-first"));
            assertThat(b.read()).isEqualTo(List.of("pmessage", "c*", "ch", "from-second"));
            assertThat(b.read()).isEqualTo(List.of("pmessage", "c*", "ch", "from-first"));
            assertThat(onSecond.pubsubNumSub("ch")).containsEntry("ch", 1L);
            assertThat(onFirst.pubsubNumPat()).isEqualTo(1);
            assertThat(onSecond.pubsubChannels()).containsExactly("ch");
        }
    }

    @Test
    void subscribersOnBothServersSeeOnePublishOrder() throws Exception {
        try (RespClient a = new RespClient(first.port()); RespClient b = new RespClient(second.port())) {
            a.call("SUBSCRIBE", "order");
            b.call("SUBSCRIBE", "order");
            for (int i = 0; i < 200; i++) {
                (i % 2 == 0 ? onFirst : onSecond).publish("order", Integer.toString(i));
            }
            for (int i = 0; i < 200; i++) {
                List<Object> expected = List.of("message", "order", Integer.toString(i));
                assertThat(a.read()).isEqualTo(expected);
                assertThat(b.read()).isEqualTo(expected);
            }
        }
    }

    @Test
    void aServerThatStopsTakesItsSubscribersOutOfTheCounts() throws Exception {
        RespClient b = new RespClient(second.port());
        b.call("SUBSCRIBE", "gone");
        assertThat(onFirst.publish("gone", "x")).isEqualTo(1);
        onSecond.close();
        second.close();
        assertThat(onFirst.pubsubNumSub("gone")).containsEntry("gone", 0L);
        assertThat(onFirst.publish("gone", "y")).isZero();
        b.close();
        second = RedisServer.start(first.database, RedisConfig.defaults().withPort(0));
        onSecond = new Jedis("127.0.0.1", second.port(), 10_000);
    }

    @Test
    void aLongChannelNameIsCountedListedAndDeliveredByBothServers() throws Exception {
        // Longer than a FoundationDB key: counted under a bounded id, listed by its full name.
        String channel = "long:" + "x".repeat(50_000);
        try (RespClient a = new RespClient(first.port()); RespClient b = new RespClient(second.port())) {
            a.call("SUBSCRIBE", channel);
            b.call("PSUBSCRIBE", "long:*");
            assertThat(onSecond.publish(channel, "m")).isEqualTo(2);
            assertThat(a.read()).isEqualTo(List.of("message", channel, "m"));
            assertThat(b.read()).isEqualTo(List.of("pmessage", "long:*", channel, "m"));
            assertThat(onSecond.pubsubNumSub(channel)).containsEntry(channel, 1L);
            assertThat(onSecond.pubsubChannels()).containsExactly(channel);
        }
        // The closed connections' subscriptions leave both servers' counts.
        long deadline = System.currentTimeMillis() + 5_000;
        while (onSecond.pubsubNumSub(channel).get(channel) != 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(onSecond.pubsubChannels()).isEmpty();
    }

    @Test
    void aServerThatStopsTakesItsLongNamesOutOfTheListing() throws Exception {
        String channel = "y".repeat(30_000);
        RespClient b = new RespClient(second.port());
        b.call("SUBSCRIBE", channel);
        assertThat(onFirst.pubsubChannels()).containsExactly(channel);
        onSecond.close();
        second.close();
        assertThat(onFirst.pubsubNumSub(channel)).containsEntry(channel, 0L);
        assertThat(onFirst.pubsubChannels()).isEmpty();
        b.close();
        second = RedisServer.start(first.database, RedisConfig.defaults().withPort(0));
        onSecond = new Jedis("127.0.0.1", second.port(), 10_000);
    }

    @Test
    void lettuceOverResp3ReceivesPushesOnAConnectionThatRunsCommandsToo() throws Exception {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + second.port());
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        try (StatefulRedisPubSubConnection<String, String> conn = client.connectPubSub()) {
            conn.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    received.add(channel + ":" + message);
                }

                @Override
                public void message(String pattern, String channel, String message) {
                    received.add(pattern + "|" + channel + ":" + message);
                }
            });
            conn.sync().subscribe("lt");
            conn.sync().psubscribe("l*");
            // RESP3: a subscribed connection may still run ordinary commands.
            assertThat(conn.sync().set("k", "v")).isEqualTo("OK");
            assertThat(onFirst.publish("lt", "hello")).isEqualTo(2);
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                got.add(received.poll(5, TimeUnit.SECONDS));
            }
            assertThat(got).containsExactly("lt:hello", "l*|lt:hello");
            assertThat(conn.sync().get("k")).isEqualTo("v");
        } finally {
            client.shutdown();
        }
    }

    @Test
    void keyspaceNotificationsOfOneServerReachPatternSubscribersOfTheOther() throws Exception {
        onSecond.configSet("notify-keyspace-events", "KEA");
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + first.port());
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        try (StatefulRedisPubSubConnection<String, String> conn = client.connectPubSub()) {
            conn.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String pattern, String channel, String message) {
                    received.add(channel + " " + message);
                }
            });
            conn.sync().psubscribe("__key*__:*");
            onSecond.set("k", "v");
            onSecond.lpush("l", "x");
            // The first server's own setting is off: its writes publish nothing.
            onFirst.set("quiet", "v");
            onSecond.del("k");
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                got.add(received.poll(10, TimeUnit.SECONDS));
            }
            assertThat(got).containsExactly("__keyspace@0__:k set", "__keyevent@0__:set k",
                    "__keyspace@0__:l lpush", "__keyevent@0__:lpush l", "__keyspace@0__:k del", "__keyevent@0__:del k");
            assertThat(received.poll(200, TimeUnit.MILLISECONDS)).isNull();
        } finally {
            client.shutdown();
        }
    }
}
