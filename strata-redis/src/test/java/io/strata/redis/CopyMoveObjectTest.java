package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.KeyValue;
import io.strata.layers.directory.StrataDirectoryLayer;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.server.RedisServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * COPY, MOVE and OBJECT over TCP. Collections are not served by this branch yet, so the
 * type-blind copy of an object is checked on a collection written straight into the keyspace
 * (metadata naming an object, elements under it), then read back from the database.
 */
class CopyMoveObjectTest {
    private RunningServer server;
    private Jedis jedis;
    private KeyStore keys;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start();
        jedis = server.jedis();
        keys = new KeyStore(new Keyspace(new StrataDirectoryLayer().createOrOpen(server.database, RedisServer.DIRECTORY).join()));
    }

    @AfterEach
    void stop() {
        jedis.close();
        server.close();
    }

    @Test
    void copyAString() {
        jedis.set("a", "hello");
        assertThat(jedis.copy("a", "b", false)).isTrue();
        assertThat(jedis.get("b")).isEqualTo("hello");
        jedis.set("a", "changed");
        assertThat(jedis.get("b")).isEqualTo("hello");
        assertThat(jedis.copy("a", "b", false)).isFalse();
        assertThat(jedis.copy("a", "b", true)).isTrue();
        assertThat(jedis.get("b")).isEqualTo("changed");
        assertThat(jedis.copy("missing", "c", false)).isFalse();
        assertThat(jedis.exists("c")).isFalse();
    }

    @Test
    void copyKeepsTheExpiryAndCanTargetAnotherDatabase() {
        jedis.setex("a", 100, "v");
        jedis.copy("a", "b", 3, false);
        jedis.set("plain", "v");
        jedis.copy("plain", "b2", false);
        assertThat(jedis.ttl("b2")).isEqualTo(-1);
        jedis.select(3);
        assertThat(jedis.get("b")).isEqualTo("v");
        assertThat(jedis.ttl("b")).isEqualTo(100);
        assertThat(jedis.dbSize()).isEqualTo(1);
    }

    @Test
    void copyErrors() {
        jedis.set("a", "v");
        assertThatThrownBy(() -> jedis.copy("a", "a", false)).hasMessage("ERR source and destination objects are the same");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "COPY".getBytes(), "a", "b", "DB", "x"))
                .hasMessage("ERR value is not an integer or out of range");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "COPY".getBytes(), "a", "b", "DB", "99"))
                .hasMessage("ERR DB index is out of range");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "COPY".getBytes(), "a", "b", "FOO"))
                .hasMessage("ERR syntax error");
    }

    @Test
    void moveToAnotherDatabase() {
        jedis.setex("k", 100, "v");
        assertThat(jedis.move("k", 2)).isEqualTo(1);
        assertThat(jedis.exists("k")).isFalse();
        assertThat(jedis.dbSize()).isZero();
        jedis.select(2);
        assertThat(jedis.get("k")).isEqualTo("v");
        assertThat(jedis.ttl("k")).isEqualTo(100);
        jedis.select(0);
        jedis.set("k", "other");
        assertThat(jedis.move("k", 2)).isZero();
        assertThat(jedis.move("missing", 2)).isZero();
        assertThatThrownBy(() -> jedis.move("k", 0)).hasMessage("ERR source and destination objects are the same");
        assertThatThrownBy(() -> jedis.move("k", 16)).hasMessage("ERR DB index is out of range");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "MOVE".getBytes(), "k", "x"))
                .hasMessage("ERR value is not an integer or out of range");
    }

    /** Writes a list-typed key whose elements live under a fresh object, as a collection store would. */
    private void writeCollection(int db, String key, String... elements) {
        server.database.run(tr -> {
            byte[] id = keys.newObjectId(tr).join();
            KeyMeta meta = new KeyMeta(RedisType.LIST, KeyMeta.OBJECT, 0, ObjectRef.payload(id, new byte[] {7}));
            for (int i = 0; i < elements.length; i++) {
                tr.set(keys.objectOf(db, meta).pack(com.apple.foundationdb.tuple.Tuple.from(i)), bytes(elements[i]));
            }
            keys.put(tr, db, bytes(key), null, meta);
            return null;
        });
    }

    /** The header and elements of a collection key, read straight from the database. */
    private List<String> readCollection(int db, String key) {
        return server.database.run(tr -> {
            KeyMeta meta = keys.getRaw(tr, db, bytes(key)).join();
            if (meta == null) {
                return null;
            }
            List<String> out = new ArrayList<>();
            out.add("header=" + ObjectRef.header(meta)[0]);
            for (KeyValue kv : tr.getRange(keys.objectOf(db, meta).range()).asList().join()) {
                out.add(new String(kv.getValue(), StandardCharsets.UTF_8));
            }
            return out;
        });
    }

    @Test
    void copyOfACollectionCopiesItsObjectUnderANewId() {
        writeCollection(0, "list", "a", "b", "c");
        assertThat(jedis.copy("list", "copy", false)).isTrue();
        assertThat(readCollection(0, "copy")).containsExactly("header=7", "a", "b", "c");
        jedis.del("list");
        assertThat(readCollection(0, "list")).isNull();
        // Deleting the original cleared its own object, not the copy's.
        assertThat(readCollection(0, "copy")).containsExactly("header=7", "a", "b", "c");
        assertThat(jedis.type("copy")).isEqualTo("list");
    }

    @Test
    void moveOfACollectionTakesItsElementsAlong() {
        writeCollection(0, "list", "x", "y");
        assertThat(jedis.move("list", 5)).isEqualTo(1);
        assertThat(readCollection(0, "list")).isNull();
        assertThat(readCollection(5, "list")).containsExactly("header=7", "x", "y");
        long leftInSource = server.database.run(tr -> (long) tr.getRange(keys.keyspace().objectRange(0)).asList().join().size());
        assertThat(leftInSource).isZero();
    }

    @Test
    void objectEncodingFollowsRedisRulesForStrings() {
        jedis.set("int", "12345");
        jedis.set("negative", "-7");
        jedis.set("padded", "012");
        jedis.set("big", "12345678901234567890");
        jedis.set("short", "x".repeat(44));
        jedis.set("long", "x".repeat(45));
        assertThat(jedis.objectEncoding("int")).isEqualTo("int");
        assertThat(jedis.objectEncoding("negative")).isEqualTo("int");
        assertThat(jedis.objectEncoding("padded")).isEqualTo("embstr");
        assertThat(jedis.objectEncoding("big")).isEqualTo("embstr");
        assertThat(jedis.objectEncoding("short")).isEqualTo("embstr");
        assertThat(jedis.objectEncoding("long")).isEqualTo("raw");
        assertThat(jedis.objectEncoding("missing")).isNull();
        writeCollection(0, "list", "a");
        assertThat(jedis.objectEncoding("list")).isEqualTo("quicklist");
    }

    @Test
    void objectRefcountIdletimeFreqAndHelp() {
        jedis.set("shared", "100");
        jedis.set("own", "10000");
        assertThat(jedis.objectRefcount("shared")).isEqualTo(2147483647L);
        assertThat(jedis.objectRefcount("own")).isEqualTo(1L);
        assertThat(jedis.objectIdletime("own")).isZero(); // just written; ObjectIdletimeTest has the rest
        assertThat(jedis.objectRefcount("missing")).isNull();
        assertThatThrownBy(() -> jedis.objectFreq("own"))
                .hasMessageStartingWith("ERR An LFU maxmemory policy is not selected, access frequency not tracked.");
        List<?> help = (List<?>) jedis.sendCommand(() -> "OBJECT".getBytes(), "HELP");
        assertThat(new String((byte[]) help.get(0), StandardCharsets.UTF_8))
                .isEqualTo("OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        assertThat(help).hasSize(15);
        assertThatThrownBy(() -> jedis.sendCommand(() -> "OBJECT".getBytes(), "FOO", "k"))
                .hasMessage("ERR unknown subcommand 'FOO'. Try OBJECT HELP.");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "OBJECT".getBytes(), "ENCODING"))
                .hasMessage("ERR wrong number of arguments for 'object|encoding' command");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
