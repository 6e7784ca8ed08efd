package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Publish/subscribe on one server, over TCP: message shapes, counts, modes and cleanup as Redis 7.0 has them. */
class PubSubTest {
    private static final String NOT_IN_CONTEXT =
            "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context";

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
    void subscribeConfirmsEachChannelWithTheRunningCount() throws Exception {
        try (RespClient c = client()) {
            c.send("SUBSCRIBE", "a", "b", "a");
            assertThat(c.read()).isEqualTo(List.of("subscribe", "a", 1L));
            assertThat(c.read()).isEqualTo(List.of("subscribe", "b", 2L));
            assertThat(c.read()).isEqualTo(List.of("subscribe", "a", 2L));
            assertThat(c.call("PSUBSCRIBE", "x*")).isEqualTo(List.of("psubscribe", "x*", 3L));
            // Shard channels are counted on their own.
            assertThat(c.call("SSUBSCRIBE", "s")).isEqualTo(List.of("ssubscribe", "s", 1L));
            assertThat(c.call("UNSUBSCRIBE", "b")).isEqualTo(List.of("unsubscribe", "b", 2L));
        }
    }

    @Test
    void publishAnswersHowManyReceiveAndDelivers() throws Exception {
        try (RespClient c = client()) {
            c.call("SUBSCRIBE", "chan");
            c.call("PSUBSCRIBE", "ch*");
            assertThat(jedis.publish("chan", "hello")).isEqualTo(2);
            assertThat(c.read()).isEqualTo(List.of("message", "chan", "hello"));
            assertThat(c.read()).isEqualTo(List.of("pmessage", "ch*", "chan", "hello"));
            assertThat(jedis.publish("other", "x")).isZero();

            assertThat(c.call("UNSUBSCRIBE", "chan")).isEqualTo(List.of("unsubscribe", "chan", 1L));
            assertThat(jedis.publish("chan", "again")).isEqualTo(1);
            assertThat(c.read()).isEqualTo(List.of("pmessage", "ch*", "chan", "again"));
            assertThat(c.call("PUNSUBSCRIBE", "ch*")).isEqualTo(List.of("punsubscribe", "ch*", 0L));
            assertThat(jedis.publish("chan", "gone")).isZero();
            assertThat(c.silentFor(200)).isTrue();
        }
    }

    @Test
    void aMessagePublishedBeforeSubscribingIsNotDelivered() throws Exception {
        try (RespClient c = client()) {
            assertThat(jedis.publish("early", "before")).isZero();
            c.call("SUBSCRIBE", "early");
            assertThat(jedis.publish("early", "after")).isEqualTo(1);
            assertThat(c.read()).isEqualTo(List.of("message", "early", "after"));
        }
    }

    @Test
    void unsubscribingFromNothingStillAnswers() throws Exception {
        try (RespClient c = client()) {
            assertThat(c.call("UNSUBSCRIBE")).isEqualTo(Arrays.asList("unsubscribe", null, 0L));
            assertThat(c.call("PUNSUBSCRIBE")).isEqualTo(Arrays.asList("punsubscribe", null, 0L));
            assertThat(c.call("SUNSUBSCRIBE")).isEqualTo(Arrays.asList("sunsubscribe", null, 0L));
            c.send("UNSUBSCRIBE", "x", "y");
            assertThat(c.read()).isEqualTo(List.of("unsubscribe", "x", 0L));
            assertThat(c.read()).isEqualTo(List.of("unsubscribe", "y", 0L));
            // Not subscribed: an ordinary connection still.
            assertThat(c.call("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void unsubscribeWithoutArgumentsLeavesEveryChannelOfItsKind() throws Exception {
        try (RespClient c = client()) {
            c.send("SUBSCRIBE", "a", "b");
            c.read();
            c.read();
            c.call("PSUBSCRIBE", "p*");
            c.send("UNSUBSCRIBE");
            List<Object> first = asList(c.read());
            List<Object> second = asList(c.read());
            assertThat(List.of(first.get(1), second.get(1))).containsExactlyInAnyOrder("a", "b");
            assertThat(second.get(2)).isEqualTo(1L);
            assertThat(jedis.publish("a", "x")).isZero();
            assertThat(jedis.publish("pa", "x")).isEqualTo(1);
            assertThat(c.read()).isEqualTo(List.of("pmessage", "p*", "pa", "x"));
        }
    }

    @Test
    void aPublishThatArrivesAfterAnUnsubscribeDoesNotCountIt() throws Exception {
        // As Redis's suite does: UNSUBSCRIBE sent, its reply not awaited, then PUBLISH on another connection.
        for (int i = 0; i < 50; i++) {
            try (RespClient c = client()) {
                c.call("SUBSCRIBE", "race" + i);
                c.send("UNSUBSCRIBE");
                assertThat(jedis.publish("race" + i, "x")).as("round " + i).isZero();
            }
        }
    }

    @Test
    void shardChannelsAreANamespaceOfTheirOwn() throws Exception {
        try (RespClient c = client()) {
            c.call("SSUBSCRIBE", "news");
            c.call("PSUBSCRIBE", "*");
            assertThat(jedis.publish("news", "p")).isEqualTo(1);
            assertThat(c.read()).isEqualTo(List.of("pmessage", "*", "news", "p"));
            assertThat(jedis.sendCommand(() -> "SPUBLISH".getBytes(), "news", "s")).isEqualTo(1L);
            assertThat(c.read()).isEqualTo(List.of("smessage", "news", "s"));
            assertThat(c.call("SUNSUBSCRIBE", "news")).isEqualTo(List.of("sunsubscribe", "news", 0L));
            assertThat(jedis.sendCommand(() -> "SPUBLISH".getBytes(), "news", "s")).isEqualTo(0L);
        }
    }

    @Test
    void aSubscribedResp2ConnectionMayOnlyRunPubSubCommands() throws Exception {
        try (RespClient c = client()) {
            c.call("SUBSCRIBE", "a");
            assertThat(c.call("GET", "k")).isEqualTo(new RespClient.Error("ERR Can't execute 'get" + NOT_IN_CONTEXT));
            assertThat(c.call("CLIENT", "ID")).isEqualTo(new RespClient.Error("ERR Can't execute 'client|id" + NOT_IN_CONTEXT));
            assertThat(c.call("PING")).isEqualTo(List.of("pong", ""));
            assertThat(c.call("PING", "hi")).isEqualTo(List.of("pong", "hi"));
            assertThat(c.call("UNSUBSCRIBE")).isEqualTo(List.of("unsubscribe", "a", 0L));
            assertThat(c.call("PING")).isEqualTo("PONG");
            assertThat(c.call("GET", "k")).isNull();
        }
    }

    @Test
    void aResp3ConnectionGetsPushesAndMayRunAnyCommand() throws Exception {
        try (RespClient c = client()) {
            c.call("HELLO", "3");
            assertThat(c.call("SUBSCRIBE", "a")).isEqualTo(List.of("subscribe", "a", 1L));
            assertThat(c.lastWasPush()).isTrue();
            assertThat(c.call("SET", "k", "v")).isEqualTo("OK");
            assertThat(c.call("PING")).isEqualTo("PONG");
            assertThat(jedis.publish("a", "m")).isEqualTo(1);
            assertThat(c.read()).isEqualTo(List.of("message", "a", "m"));
            assertThat(c.lastWasPush()).isTrue();
            assertThat(c.call("UNSUBSCRIBE")).isEqualTo(List.of("unsubscribe", "a", 0L));
            assertThat(c.lastWasPush()).isTrue();
        }
    }

    @Test
    void aThousandMessagesArriveInPublishOrder() throws Exception {
        try (RespClient c = client()) {
            c.call("SUBSCRIBE", "seq");
            Pipeline p = jedis.pipelined();
            for (int i = 0; i < 1000; i++) {
                p.publish("seq", Integer.toString(i));
            }
            List<Object> counts = p.syncAndReturnAll();
            assertThat(counts).containsOnly(1L);
            for (int i = 0; i < 1000; i++) {
                assertThat(c.read()).isEqualTo(List.of("message", "seq", Integer.toString(i)));
            }
            assertThat(c.silentFor(100)).isTrue();
        }
    }

    @Test
    void messagesFromConcurrentPublishersArriveOnceEachAndInEachPublishersOrder() throws Exception {
        try (RespClient c = client(); Jedis other = server.jedis()) {
            c.call("SUBSCRIBE", "mix");
            CompletableFuture<Void> a = CompletableFuture.runAsync(() -> publish(jedis, "a", 300));
            CompletableFuture<Void> b = CompletableFuture.runAsync(() -> publish(other, "b", 300));
            a.get(20, TimeUnit.SECONDS);
            b.get(20, TimeUnit.SECONDS);
            int nextA = 0;
            int nextB = 0;
            for (int i = 0; i < 600; i++) {
                String m = (String) asList(c.read()).get(2);
                if (m.startsWith("a")) {
                    assertThat(m).isEqualTo("a" + nextA++);
                } else {
                    assertThat(m).isEqualTo("b" + nextB++);
                }
            }
            assertThat(nextA).isEqualTo(300);
            assertThat(nextB).isEqualTo(300);
            assertThat(c.silentFor(100)).isTrue();
        }
    }

    private static void publish(Jedis j, String prefix, int n) {
        for (int i = 0; i < n; i++) {
            j.publish("mix", prefix + i);
        }
    }

    @Test
    void aPublishInMultiIsDeliveredWhenExecCommits() throws Exception {
        try (RespClient c = client()) {
            c.call("SUBSCRIBE", "t");
            Transaction tx = jedis.multi();
            tx.publish("t", "discarded");
            tx.discard();
            tx = jedis.multi();
            tx.publish("t", "x");
            tx.publish("t", "y");
            assertThat(c.silentFor(100)).isTrue();
            assertThat(tx.exec()).containsExactly(1L, 1L);
            assertThat(c.read()).isEqualTo(List.of("message", "t", "x"));
            assertThat(c.read()).isEqualTo(List.of("message", "t", "y"));
            assertThat(c.silentFor(100)).isTrue();
        }
    }

    @Test
    void closingAConnectionTakesItsSubscriptionsAway() throws Exception {
        RespClient c = client();
        c.call("SUBSCRIBE", "a");
        c.call("PSUBSCRIBE", "p*");
        assertThat(jedis.pubsubNumSub("a")).containsEntry("a", 1L);
        assertThat(jedis.pubsubNumPat()).isEqualTo(1);
        c.close();
        long deadline = System.currentTimeMillis() + 5_000;
        while (jedis.pubsubNumPat() != 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(jedis.pubsubNumSub("a")).containsEntry("a", 0L);
        assertThat(jedis.pubsubNumPat()).isZero();
        assertThat(jedis.pubsubChannels()).isEmpty();
        assertThat(jedis.publish("a", "x")).isZero();
    }

    @Test
    void resetEndsEverySubscriptionSilently() throws Exception {
        try (RespClient c = client()) {
            c.call("SUBSCRIBE", "a");
            c.call("SSUBSCRIBE", "s");
            assertThat(c.call("RESET")).isEqualTo("RESET");
            assertThat(jedis.publish("a", "x")).isZero();
            assertThat(jedis.pubsubNumSub("a")).containsEntry("a", 0L);
            assertThat(c.call("GET", "k")).isNull();
            assertThat(c.silentFor(100)).isTrue();
        }
    }

    @Test
    void pubsubReportsChannelsPatternsAndCounts() throws Exception {
        try (RespClient c1 = client(); RespClient c2 = client(); RespClient c3 = client()) {
            c1.send("SUBSCRIBE", "news.1", "news.2");
            c1.read();
            c1.read();
            c2.call("SUBSCRIBE", "news.1");
            c2.call("PSUBSCRIBE", "n*");
            c3.call("PSUBSCRIBE", "n*");
            c3.call("SSUBSCRIBE", "shard.1");
            assertThat(jedis.pubsubChannels()).containsExactlyInAnyOrder("news.1", "news.2");
            assertThat(jedis.pubsubChannels("*.2")).containsExactly("news.2");
            assertThat(jedis.pubsubNumSub("news.1", "news.2", "none"))
                    .containsEntry("news.1", 2L).containsEntry("news.2", 1L).containsEntry("none", 0L);
            assertThat(jedis.pubsubNumPat()).isEqualTo(1);
            List<?> shardChannels = (List<?>) jedis.sendCommand(() -> "PUBSUB".getBytes(), "SHARDCHANNELS");
            assertThat(shardChannels).hasSize(1);
            assertThat(new String((byte[]) shardChannels.get(0))).isEqualTo("shard.1");
            List<?> shardNumSub = (List<?>) jedis.sendCommand(() -> "PUBSUB".getBytes(), "SHARDNUMSUB", "shard.1", "news.1");
            assertThat(shardNumSub).hasSize(4);
            assertThat(shardNumSub.get(1)).isEqualTo(1L);
            assertThat(shardNumSub.get(3)).isEqualTo(0L);
        }
    }

    @Test
    void pubsubRejectsWhatRedisRejects() {
        assertThatThrownBy(() -> jedis.sendCommand(() -> "PUBSUB".getBytes(), "FOO"))
                .isInstanceOf(JedisDataException.class).hasMessage("ERR unknown subcommand 'FOO'. Try PUBSUB HELP.");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "PUBSUB".getBytes(), "NUMPAT", "x"))
                .hasMessage("ERR wrong number of arguments for 'pubsub|numpat' command");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "PUBSUB".getBytes(), "CHANNELS", "a", "b"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP.");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "PUBLISH".getBytes(), "a"))
                .hasMessage("ERR wrong number of arguments for 'publish' command");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SUBSCRIBE".getBytes()))
                .hasMessage("ERR wrong number of arguments for 'subscribe' command");
    }

    @Test
    void clientReplyOffStillSendsConfirmationsAndMessages() throws Exception {
        try (RespClient c = client()) {
            c.send("CLIENT", "REPLY", "OFF");
            assertThat(c.call("SUBSCRIBE", "a")).isEqualTo(List.of("subscribe", "a", 1L));
            assertThat(jedis.publish("a", "m")).isEqualTo(1);
            assertThat(c.read()).isEqualTo(List.of("message", "a", "m"));
            c.send("PING");
            assertThat(c.call("UNSUBSCRIBE", "a")).isEqualTo(List.of("unsubscribe", "a", 0L));
            assertThat(c.call("CLIENT", "REPLY", "ON")).isEqualTo("OK");
            c.send("CLIENT", "REPLY", "SKIP");
            c.send("SET", "k", "v");
            assertThat(c.call("GET", "k")).isEqualTo("v");
        }
    }

    @Test
    void clientListShowsSubscriptions() throws Exception {
        try (RespClient c = client()) {
            c.send("SUBSCRIBE", "a", "b");
            c.read();
            c.read();
            c.call("PSUBSCRIBE", "p*");
            String mine = Arrays.stream(jedis.clientList().split("\n")).filter(l -> l.contains("cmd=psubscribe"))
                    .findFirst().orElseThrow();
            assertThat(mine).contains("flags=P ").contains(" sub=2 psub=1 ssub=0 ");
            assertThat(jedis.clientList(redis.clients.jedis.args.ClientType.PUBSUB)).contains("cmd=psubscribe");
            assertThat(jedis.clientList(redis.clients.jedis.args.ClientType.NORMAL)).doesNotContain("cmd=psubscribe");
        }
    }

    @Test
    void aMessageLargerThanADatabaseValueArrivesWhole() throws Exception {
        String big = String.join("", Collections.nCopies(30_000, "0123456789"));
        try (RespClient c = client()) {
            c.call("SUBSCRIBE", "big");
            assertThat(jedis.publish("big", big)).isEqualTo(1);
            assertThat(jedis.publish("big", "small")).isEqualTo(1);
            assertThat(c.read()).isEqualTo(List.of("message", "big", big));
            assertThat(c.read()).isEqualTo(List.of("message", "big", "small"));
        }
    }

    @Test
    void jedisPubSubSubscribesReceivesAndUnsubscribes() throws Exception {
        List<String> received = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Integer> subscribed = new CompletableFuture<>();
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onSubscribe(String channel, int count) {
                subscribed.complete(count);
            }

            @Override
            public void onMessage(String channel, String message) {
                received.add(channel + ":" + message);
                if (received.size() == 3) {
                    unsubscribe();
                }
            }
        };
        try (Jedis subscriber = server.jedis()) {
            CompletableFuture<Void> loop = CompletableFuture.runAsync(() -> subscriber.subscribe(listener, "jp"));
            assertThat(subscribed.get(5, TimeUnit.SECONDS)).isEqualTo(1);
            for (int i = 0; i < 3; i++) {
                jedis.publish("jp", "m" + i);
            }
            loop.get(5, TimeUnit.SECONDS);
            assertThat(received).containsExactly("jp:m0", "jp:m1", "jp:m2");
            assertThat(subscriber.ping()).isEqualTo("PONG");
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object reply) {
        return (List<Object>) reply;
    }
}
