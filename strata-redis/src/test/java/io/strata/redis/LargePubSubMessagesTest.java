package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisConnectionException;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Pub/sub messages larger than one FoundationDB transaction carries (Redis takes up to 512 MB):
 * staged as a large string value is, then queued by reference in the publishing transaction;
 * delivered whole and in order; the stored copy cleared once every reader delivered it.
 */
class LargePubSubMessagesTest extends SharedServerTestSupport {
    private static final int LARGE = 12_000_000;

    @Test
    void aMessageLargerThanATransactionReachesEverySubscriberWholeAndInOrder() throws Exception {
        String large = text(LARGE, 1);
        try (RespClient channel = new RespClient(server.port()); RespClient pattern = new RespClient(server.port())) {
            channel.call("SUBSCRIBE", "news");
            pattern.call("PSUBSCRIBE", "n*");
            assertThat(jedis.publish("news", "before")).isEqualTo(2);
            assertThat(jedis.publish("news", large)).isEqualTo(2);
            assertThat(jedis.publish("news", "after")).isEqualTo(2);

            assertThat(channel.read()).isEqualTo(List.of("message", "news", "before"));
            assertThat(channel.read()).isEqualTo(List.of("message", "news", large));
            assertThat(channel.read()).isEqualTo(List.of("message", "news", "after"));
            assertThat(pattern.read()).isEqualTo(List.of("pmessage", "n*", "news", "before"));
            assertThat(pattern.read()).isEqualTo(List.of("pmessage", "n*", "news", large));
            assertThat(pattern.read()).isEqualTo(List.of("pmessage", "n*", "news", "after"));
        }
    }

    @Test
    void insideMultiExecTheLargeMessageIsPublishedWhenExecCommits() throws Exception {
        String large = text(LARGE, 2);
        try (RespClient subscriber = new RespClient(server.port())) {
            subscriber.call("SUBSCRIBE", "c");
            Transaction multi = jedis.multi();
            multi.publish("c", "one");
            multi.publish("c", large);
            multi.set("k", "v");
            multi.publish("c", "three");
            assertThat(multi.exec()).containsExactly(1L, 1L, "OK", 1L);
            assertThat(subscriber.read()).isEqualTo(List.of("message", "c", "one"));
            assertThat(subscriber.read()).isEqualTo(List.of("message", "c", large));
            assertThat(subscriber.read()).isEqualTo(List.of("message", "c", "three"));
        }
    }

    @Test
    void aChannelNameLongerThanOneDatabaseValueWithALargeMessage() throws Exception {
        String channel = text(200_000, 8);
        String large = text(LARGE, 9);
        try (RespClient subscriber = new RespClient(server.port()); RespClient pattern = new RespClient(server.port())) {
            // Longer than a database key: counted under a bounded id (see LongChannelNamesTest).
            subscriber.call("SUBSCRIBE", channel);
            pattern.call("PSUBSCRIBE", "*");
            assertThat(jedis.publish(channel, large)).isEqualTo(2);
            assertThat(subscriber.read()).isEqualTo(List.of("message", channel, large));
            assertThat(pattern.read()).isEqualTo(List.of("pmessage", "*", channel, large));
        }
    }

    @Test
    void aScriptCannotPublishMoreThanOneTransactionCarries() {
        String script = "return redis.call('publish', ARGV[1], ARGV[2])";
        assertThat(jedis.eval(script, 0, "c", text(9_000_000, 10))).isEqualTo(0L);
        assertThatThrownBy(() -> jedis.eval(script, 0, "c", text(LARGE, 11)))
                .hasMessageContaining("message too large").hasMessageContaining("9900000");
    }

    @Test
    void aShardedPublishOfALargeMessageArrives() throws Exception {
        String large = text(LARGE, 3);
        try (RespClient subscriber = new RespClient(server.port()); RespClient publisher = new RespClient(server.port())) {
            subscriber.call("SSUBSCRIBE", "s");
            assertThat(subscriber.call("SPUBLISH", "s", large)).as("SPUBLISH from the subscriber's own connection is refused")
                    .isInstanceOf(RespClient.Error.class);
            assertThat(publisher.call("SPUBLISH", "s", large)).isEqualTo(1L);
            assertThat(subscriber.read()).isEqualTo(List.of("smessage", "s", large));
        }
    }

    @Test
    void theStoredMessageIsClearedOnceDeliveredAndADiscardedOneLeavesNothing() throws Exception {
        long empty = server.storedBytes();
        try (RespClient subscriber = new RespClient(server.port())) {
            subscriber.call("SUBSCRIBE", "c");
            jedis.publish("c", text(LARGE, 4));
            assertThat(((List<?>) subscriber.read()).get(2)).isEqualTo(text(LARGE, 4));
            assertThat(server.storedBytes()).as("kept until every reader moved past it").isGreaterThan(empty + LARGE / 2);
            // The entry a reader delivered last stays; the next message moves every cursor past it.
            jedis.publish("c", "next");
            assertThat(subscriber.read()).isEqualTo(List.of("message", "c", "next"));
            awaitStoredBytesBelow(empty + 100_000);

            Transaction multi = jedis.multi();
            multi.publish("c", text(LARGE, 5));
            multi.discard();
            try (Jedis other = server.jedis()) {
                jedis.watch("w");
                other.set("w", "changed");
                Transaction watched = jedis.multi();
                watched.publish("c", text(LARGE, 6));
                assertThat(watched.exec()).as("a watched key changed").isNull();
            }
            assertThat(server.storedBytes()).as("nothing staged outlives a refused publish").isLessThan(empty + 100_000);
            assertThat(subscriber.silentFor(300)).isTrue();
        }
    }

    @Test
    void aSlowSubscriberPastThePubSubOutputLimitIsDisconnected() throws Exception {
        // As Jedis's own handleClientOutputBufferLimitForSubscribeTooSlow does: 10 MB messages
        // to a subscriber that reads nothing while the class's limit is 256 kB.
        jedis.configSet("client-output-buffer-limit", "pubsub 256k 128k 5");
        try {
            String message = text(10_485_760, 7);
            CompletableFuture<Void> subscriber = new CompletableFuture<>();
            Thread listener = new Thread(() -> {
                try (Jedis j = server.jedis()) {
                    j.subscribe(new JedisPubSub() {
                        @Override
                        public void onMessage(String channel, String m) {
                            sleep(2_000);
                        }
                    }, "foo");
                    subscriber.complete(null);
                } catch (RuntimeException e) {
                    subscriber.completeExceptionally(e);
                }
            });
            listener.start();
            awaitSubscribers("foo");
            for (int i = 0; i < 10 && !subscriber.isDone(); i++) {
                jedis.publish("foo", message);
            }
            assertThatThrownBy(() -> subscriber.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(JedisConnectionException.class);
        } finally {
            jedis.configSet("client-output-buffer-limit", "pubsub 32mb 8mb 60");
        }
    }

    private static void awaitSubscribers(String channel) throws InterruptedException {
        for (int i = 0; i < 500 && jedis.pubsubNumSub(channel).get(channel) == 0; i++) {
            Thread.sleep(10);
        }
    }

    private static void awaitStoredBytesBelow(long bytes) throws InterruptedException {
        // The queue is trimmed by the readers' sweep, once a second.
        for (int i = 0; i < 100 && server.storedBytes() >= bytes; i++) {
            Thread.sleep(100);
        }
        assertThat(server.storedBytes()).isLessThan(bytes);
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

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
