package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.util.List;

/**
 * Client-side caching (CLIENT TRACKING) over TCP, as Redis 7.0's tracking unit checks it:
 * invalidations pushed in RESP3 or redirected to a RESP2 subscriber, the invalidation for a
 * connection's own change after its reply, NOLOOP, BCAST prefixes, OPTIN/OPTOUT, flushes,
 * expiry, the table limit, and the CLIENT subcommands' replies.
 */
class ClientTrackingTest extends SharedServerTestSupport {

    @BeforeEach
    void resetTableLimit() {
        jedis.configSet("tracking-table-max-keys", "1000000");
    }

    private static RespClient resp3() throws Exception {
        RespClient c = new RespClient(server.port());
        c.call("HELLO", "3");
        return c;
    }

    private static long idOf(RespClient c) throws Exception {
        return (Long) c.call("CLIENT", "ID");
    }

    @Test
    void aReadKeyIsInvalidatedOnceWhenAnotherClientChangesIt() throws Exception {
        try (RespClient r = resp3()) {
            assertThat(r.call("CLIENT", "TRACKING", "on")).isEqualTo("OK");
            jedis.set("k", "1");
            jedis.set("unread", "1");
            assertThat(r.call("GET", "k")).isEqualTo("1");
            jedis.set("unread", "2");
            jedis.set("k", "2");
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("k")));
            assertThat(r.lastWasPush()).isTrue();
            // No longer tracked until read again.
            jedis.set("k", "3");
            assertThat(r.silentFor(200)).isTrue();
        }
    }

    @Test
    void invalidationsGoToARedirectionTargetAsPubSubMessages() throws Exception {
        try (RespClient target = new RespClient(server.port()); RespClient r = new RespClient(server.port())) {
            long id = idOf(target);
            target.call("SUBSCRIBE", "__redis__:invalidate");
            assertThat(r.call("CLIENT", "TRACKING", "on", "REDIRECT", Long.toString(id))).isEqualTo("OK");
            assertThat(r.call("CLIENT", "GETREDIR")).isEqualTo(id);
            r.call("GET", "a");
            r.call("INCR", "a");
            assertThat(target.read()).isEqualTo(List.of("message", "__redis__:invalidate", List.of("a")));
        }
    }

    @Test
    void theWritersOwnInvalidationComesAfterItsReply() throws Exception {
        try (RespClient r = resp3()) {
            r.call("CLIENT", "TRACKING", "on");
            r.call("HSET", "h", "f", "1");
            r.call("HGET", "h", "f");
            assertThat(r.call("HDEL", "h", "f")).isEqualTo(1L);
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("h")));
            // The same for a transaction: EXEC's reply first.
            r.call("MSET", "a", "1", "b", "2");
            r.call("GET", "a");
            r.call("MULTI");
            r.call("INCR", "a");
            r.call("GET", "b");
            assertThat(r.call("EXEC")).isEqualTo(List.of(2L, "2"));
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("a")));
        }
    }

    @Test
    void noloopLeavesOutTheClientsOwnChangesScriptsIncluded() throws Exception {
        try (RespClient r = resp3()) {
            r.call("CLIENT", "TRACKING", "on", "NOLOOP");
            r.call("GET", "mine");
            r.call("SET", "mine", "1");
            r.call("GET", "mine");
            r.call("EVAL", "return redis.call('set', KEYS[1], '2')", "1", "mine");
            assertThat(r.call("GET", "mine")).isEqualTo("2");
            jedis.set("mine", "3");
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("mine")));
        }
    }

    @Test
    void bcastSendsOneMessagePerPrefixForATransaction() throws Exception {
        try (RespClient target = new RespClient(server.port()); RespClient r = new RespClient(server.port())) {
            long id = idOf(target);
            target.call("SUBSCRIBE", "__redis__:invalidate");
            r.call("CLIENT", "TRACKING", "on", "BCAST", "REDIRECT", Long.toString(id), "PREFIX", "a:", "PREFIX", "b:");
            r.call("MULTI");
            r.call("INCR", "a:1");
            r.call("INCR", "a:2");
            r.call("INCR", "b:1");
            r.call("INCR", "c:1");
            r.call("EXEC");
            assertThat(target.read()).isEqualTo(List.of("message", "__redis__:invalidate", List.of("a:1", "a:2")));
            assertThat(target.read()).isEqualTo(List.of("message", "__redis__:invalidate", List.of("b:1")));
            assertThat(r.call("CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "a")).isEqualTo(
                    new RespClient.Error("ERR Prefix 'a' overlaps with an existing prefix 'a:'. Prefixes for a single client must not overlap."));
        }
    }

    @Test
    void anExpiredKeyIsInvalidatedEvenForItsNoloopWriter() throws Exception {
        try (RespClient r = resp3()) {
            r.call("CLIENT", "TRACKING", "on", "BCAST", "NOLOOP");
            // Found expired by active expiry: nobody's change.
            assertThat(r.call("SET", "short", "v", "PX", "1")).isEqualTo("OK");
            r.call("SET", "other", "v");
            server.advanceMillis(10);
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("short")));
            // Stored already expired (Redis stores it, then finds it expired): nobody's change
            // either, and announced after the SET's reply.
            long past = server.clock.get() - 1000;
            assertThat(r.call("SET", "gone", "v", "PXAT", Long.toString(past))).isEqualTo("OK");
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("gone")));
        }
    }

    @Test
    void optinTracksOnlyAfterCachingYes() throws Exception {
        try (RespClient r = resp3()) {
            r.call("CLIENT", "TRACKING", "on", "OPTIN");
            r.call("GET", "skipped");
            r.call("CLIENT", "CACHING", "yes");
            r.call("GET", "cached");
            jedis.set("skipped", "1");
            jedis.set("cached", "1");
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("cached")));
            assertThat(r.call("CLIENT", "CACHING", "no")).isEqualTo(
                    new RespClient.Error("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode."));
        }
    }

    @Test
    void aFlushInvalidatesEverythingWithANull() throws Exception {
        try (RespClient r = resp3()) {
            r.call("CLIENT", "TRACKING", "on");
            r.call("GET", "k1");
            r.call("GET", "k2");
            assertThat(jedis.info("stats")).contains("tracking_total_keys:2");
            jedis.flushAll();
            assertThat(jedis.info("stats")).contains("tracking_total_keys:0");
            assertThat(r.read()).isEqualTo(java.util.Arrays.asList("invalidate", null));
        }
    }

    @Test
    void theTableLimitEvictsKeysWithAnInvalidation() throws Exception {
        try (RespClient r = resp3()) {
            r.call("CLIENT", "TRACKING", "on");
            r.call("GET", "first");
            r.call("GET", "second");
            jedis.configSet("tracking-table-max-keys", "1");
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("first")));
            assertThat(jedis.info("stats")).contains("tracking_total_keys:1");
        }
    }

    @Test
    void aBrokenRedirectionIsReportedToARESP3Client() throws Exception {
        try (RespClient r = resp3()) {
            long id;
            try (RespClient target = new RespClient(server.port())) {
                id = idOf(target);
                r.call("CLIENT", "TRACKING", "on", "REDIRECT", Long.toString(id));
                r.call("GET", "k");
            }
            waitUntilGone(id);
            jedis.set("k", "1");
            assertThat(r.read()).isEqualTo(List.of("tracking-redir-broken", id));
            @SuppressWarnings("unchecked")
            List<Object> info = (List<Object>) r.call("CLIENT", "TRACKINGINFO");
            assertThat(info).containsExactly("flags", List.of("on", "broken_redirect"), "redirect", id, "prefixes", List.of());
        }
    }

    private static void waitUntilGone(long id) throws InterruptedException {
        for (int i = 0; i < 100 && jedis.clientList().contains("id=" + id + " "); i++) {
            Thread.sleep(20);
        }
    }

    @Test
    void trackingInfoAndClientListShowTheMode() throws Exception {
        try (RespClient r = new RespClient(server.port())) {
            assertThat(r.call("CLIENT", "TRACKINGINFO")).isEqualTo(List.of("flags", List.of("off"), "redirect", -1L, "prefixes", List.of()));
            r.call("CLIENT", "TRACKING", "on", "OPTOUT", "NOLOOP");
            r.call("CLIENT", "CACHING", "no");
            assertThat(r.call("CLIENT", "TRACKINGINFO")).isEqualTo(
                    List.of("flags", List.of("on", "optout", "caching-no", "noloop"), "redirect", 0L, "prefixes", List.of()));
            assertThat((String) r.call("CLIENT", "INFO")).contains("flags=t ").contains("redir=0 ");
            assertThat(r.call("RESET")).isEqualTo("RESET");
            assertThat((String) r.call("CLIENT", "INFO")).contains("flags=N ").contains("redir=-1 ");
            assertThat(jedis.info("clients")).contains("tracking_clients:0");
        }
    }

    @Test
    void scriptsTrackTheirDeclaredKeysOnlyWhenTheyRead() throws Exception {
        try (RespClient r = resp3()) {
            r.call("CLIENT", "TRACKING", "on");
            r.call("EVAL", "redis.call('set', 'other', 'x')", "1", "declared");
            jedis.set("declared", "1");
            r.call("EVAL", "redis.call('get', 'other')", "1", "declared");
            jedis.set("declared", "2");
            assertThat(r.read()).isEqualTo(List.of("invalidate", List.of("declared")));
        }
    }
}
