package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code client-output-buffer-limit}'s pubsub class, as Redis applies it to a subscriber that
 * stops reading: closed as soon as the bytes waiting pass the hard limit, or once they have
 * stayed past the soft limit for more than its seconds; a reading subscriber is never closed.
 */
class PubSubOutputLimitTest extends ServerTestSupport {
    private static final String MESSAGE = "m".repeat(100_000);

    private long subscribers() {
        Map<String, Long> n = jedis.pubsubNumSub("obl");
        return n.get("obl");
    }

    @Test
    void aSubscriberPastTheHardLimitIsClosed() throws Exception {
        jedis.configSet("client-output-buffer-limit", "pubsub 262144 0 0");
        try (RespSocket idle = subscriber()) {
            publishWhileSubscribed(200); // up to 20 MB: past the socket buffers too
            awaitNoSubscriber();
        }
    }

    @Test
    void aSubscriberPastTheSoftLimitForLongerThanItsSecondsIsClosed() throws Exception {
        jedis.configSet("client-output-buffer-limit", "pubsub 0 65536 1");
        try (RespSocket idle = subscriber()) {
            publishWhileSubscribed(100); // past the socket buffers, then past the soft limit
            assertThat(subscribers()).as("the soft limit alone does not close at once").isEqualTo(1);
            server.advanceMillis(1_000); // the server's clock: one second is not more than the limit's one
            jedis.publish("obl", "x");
            assertThat(subscribers()).isEqualTo(1);
            server.advanceMillis(1_500);
            jedis.publish("obl", "x");
            awaitNoSubscriber(); // the message reaches the subscriber's connection after PUBLISH answers
        }
    }

    /** A connection subscribed to the test's channel that reads nothing more unless the test does. */
    private RespSocket subscriber() throws java.io.IOException {
        RespSocket s = new RespSocket(server.port());
        s.command("SUBSCRIBE", "obl");
        assertThat(s.reply()).startsWith("*3");
        return s;
    }

    /** Publishes up to {@code n} messages of 100,000 bytes, stopping once nobody is subscribed. */
    private void publishWhileSubscribed(int n) {
        for (int i = 0; i < n && subscribers() > 0; i++) {
            jedis.publish("obl", MESSAGE);
        }
    }

    private void awaitNoSubscriber() throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (subscribers() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(subscribers()).isZero();
    }

    @Test
    void aReadingSubscriberStaysWithLimitsOff() throws Exception {
        jedis.configSet("client-output-buffer-limit", "pubsub 0 0 0");
        try (RespSocket idle = subscriber()) {
            publishWhileSubscribed(100);
            assertThat(subscribers()).isEqualTo(1);
            for (int i = 0; i < 100; i++) {
                assertThat(idle.reply()).startsWith("*3");
            }
        }
    }
}
