package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.resps.ScanResult;

/** SCAN and RANDOMKEY over TCP. */
class ScanAndRandomKeyTest extends ServerTestSupport {

    private void populate(int n) {
        String[] kv = new String[2 * n];
        for (int i = 0; i < n; i++) {
            kv[2 * i] = "key:" + i;
            kv[2 * i + 1] = "v";
        }
        jedis.mset(kv);
    }

    /** Every key SCAN returns from cursor 0 to the end, each call checked to bring at most {@code count}. */
    private List<String> scanAll(ScanParams params, int count) {
        List<String> keys = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> r = jedis.scan(cursor, params);
            assertThat(r.getResult().size()).isLessThanOrEqualTo(count);
            keys.addAll(r.getResult());
            cursor = r.getCursor();
        } while (!cursor.equals("0"));
        return keys;
    }

    @Test
    void scanReturnsEveryKeyOnceInPieces() {
        populate(250);
        List<String> keys = scanAll(new ScanParams().count(7), 7);
        assertThat(keys).hasSize(250).doesNotHaveDuplicates();
        assertThat(scanAll(new ScanParams(), 10)).hasSize(250);
    }

    @Test
    void matchAndTypeFilter() {
        populate(200);
        assertThat(scanAll(new ScanParams().match("key:1??").count(20), 20)).hasSize(100);
        assertThat(scanAll(new ScanParams().count(50), 50)).hasSize(200);
        assertThat(jedis.scan("0", new ScanParams().count(1000), "string").getResult()).hasSize(200);
        assertThat(jedis.scan("0", new ScanParams().count(1000), "list").getResult()).isEmpty();
        assertThat(jedis.scan("0", new ScanParams().count(1000), "STRING").getResult()).hasSize(200);
    }

    @Test
    void keysPresentThroughoutAreFoundDespiteWrites() {
        populate(100);
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int round = 0;
        do {
            ScanResult<String> r = jedis.scan(cursor, new ScanParams().count(10));
            seen.addAll(r.getResult());
            cursor = r.getCursor();
            jedis.set("added:" + round, "x");
            jedis.del("key:" + (99 - round));
            round++;
        } while (!cursor.equals("0"));
        for (int i = 0; i < 100 - round; i++) {
            assertThat(seen).contains("key:" + i);
        }
    }

    @Test
    void cursorsWorkAcrossConnections() {
        populate(30);
        ScanResult<String> first = jedis.scan("0", new ScanParams().count(10));
        assertThat(first.getCursor()).isNotEqualTo("0");
        try (Jedis other = server.jedis()) {
            ScanResult<String> second = other.scan(first.getCursor(), new ScanParams().count(100));
            assertThat(second.getCursor()).isEqualTo("0");
            assertThat(second.getResult()).hasSize(20).doesNotContainAnyElementsOf(first.getResult());
        }
    }

    @Test
    void expiredKeysAreSkipped() {
        server.server.expiryCycle().setActive(false);
        populate(5);
        jedis.set("short", "v", SetParams.setParams().px(10));
        server.advanceMillis(20);
        assertThat(jedis.scan("0", new ScanParams().count(100)).getResult()).hasSize(5).doesNotContain("short");
    }

    @Test
    void cursorAndOptionErrors() {
        for (String cursor : new String[] {"abc", "+", "-", " 1", "1 ", "\t1", "+-1", "0x1", "18446744073709551616",
                "-18446744073709551616"}) {
            assertThatThrownBy(() -> jedis.scan(cursor)).as(cursor).hasMessage("ERR invalid cursor");
        }
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SCAN".getBytes(), "0", "COUNT", "0")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SCAN".getBytes(), "0", "COUNT")).hasMessage("ERR syntax error");
        // A cursor the server never handed out restarts the scan.
        populate(3);
        assertThat(jedis.scan("123456789").getResult()).hasSize(3);
    }

    @Test
    void cursorsAreReadAsStrtoulReadsThem() {
        // Redis 7.0.15 accepts these (parseScanCursorOrReply); each starts the scan here.
        populate(3);
        for (String cursor : new String[] {"", "+0", "-0", "0\0junk", "\0", "+1", "1\0", "-1", "18446744073709551615",
                "-18446744073709551615"}) {
            assertThat(jedis.scan(cursor).getResult()).as(cursor).hasSize(3);
        }
        jedis.hset("h", "f", "v");
        jedis.sadd("s", "m");
        assertThat(Raw.call(jedis, "HSCAN", "h", "-1")).isEqualTo(List.of("0", List.of("f", "v")));
        assertThat(Raw.call(jedis, "SSCAN", "s", "")).isEqualTo(List.of("0", List.of("m")));
    }

    @Test
    void scanOptionWordsEndAtANulAsInRedis() {
        jedis.set("a", "1");
        assertThat(Raw.call(jedis, "SCAN", "0", "COUNT\0x", "5", "match\0", "*", "TYPE", "STRING\0x"))
                .isEqualTo(List.of("0", List.of("a")));
    }

    @Test
    void randomKeyComesFromTheDatabase() {
        assertThat(jedis.randomKey()).isNull();
        jedis.set("foo", "x");
        jedis.set("bar", "y");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            seen.add(jedis.randomKey());
        }
        assertThat(seen).containsExactlyInAnyOrder("foo", "bar");
        jedis.del("foo", "bar");
        assertThat(jedis.randomKey()).isNull();
    }

    @Test
    void randomKeyCoversKeysOfOneShape() {
        populate(20);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            seen.add(jedis.randomKey());
        }
        assertThat(seen.size()).isGreaterThan(10);
    }

    @Test
    void randomKeyStepsOverExpiredKeys() {
        server.server.expiryCycle().setActive(false);
        for (int i = 0; i < 100; i++) {
            jedis.set("gone:" + i, "v", SetParams.setParams().px(10));
        }
        jedis.set("live", "v");
        server.advanceMillis(20);
        for (int i = 0; i < 10; i++) {
            assertThat(jedis.randomKey()).isEqualTo("live");
        }
        jedis.del("live");
        assertThat(jedis.randomKey()).isNull();
    }
}
