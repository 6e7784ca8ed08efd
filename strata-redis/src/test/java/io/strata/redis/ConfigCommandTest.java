package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.command.RedisConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** CONFIG GET/SET/RESETSTAT/REWRITE with Redis 7.0's rules, and the parameters that take effect. */
class ConfigCommandTest extends ServerTestSupport {

    @Test
    void getMatchesPatternsAndAliasesOnce() {
        Map<String, String> m = jedis.configGet("maxmemory", "maxmemory*", "bind", "*of");
        assertThat(m).containsKeys("maxmemory", "maxmemory-policy", "maxmemory-samples", "maxmemory-clients", "bind",
                "slaveof", "replicaof");
        assertThat(m.get("bind")).isEqualTo("127.0.0.1");
        assertThat(jedis.configGet("MAXMEMORY")).containsExactly(Map.entry("MAXMEMORY", "0"));
        assertThat(jedis.configGet("port")).containsEntry("port", Integer.toString(server.port()));
        assertThat(jedis.configGet("*")).doesNotContainKey("key-load-delay");
        assertThat(jedis.configGet("key-load-delay")).containsKey("key-load-delay");
        assertThat(jedis.configGet("nosuch")).isEmpty();
    }

    @Test
    void setChecksEverythingBeforeChangingAnything() {
        assertThat(jedis.configSet("maxmemory", "10mb", "hash-max-ziplist-entries", "100")).isEqualTo("OK");
        assertThat(jedis.configGet("maxmemory")).containsEntry("maxmemory", "10485760");
        assertThat(jedis.configGet("hash-max-listpack-entries")).containsEntry("hash-max-listpack-entries", "100");
        assertThatThrownBy(() -> jedis.configSet("maxmemory", "1", "maxmemory-clients", "200%"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - percentage argument must be less or equal to 100");
        assertThat(jedis.configGet("maxmemory")).containsEntry("maxmemory", "10485760");
        assertThatThrownBy(() -> jedis.configSet("maxmemory", "1", "maxmemory", "2"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'maxmemory') - duplicate parameter");
        assertThatThrownBy(() -> jedis.configSet("daemonize", "yes"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'daemonize') - can't set immutable config");
        assertThatThrownBy(() -> jedis.configSet("databases", "4"))
                .hasMessageContaining("can't set immutable config");
        assertThatThrownBy(() -> jedis.configSet("dir", "/tmp"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config");
        assertThatThrownBy(() -> jedis.configSet("nosuch", "1"))
                .hasMessage("ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'");
        assertThatThrownBy(() -> jedis.configSet("activerehashing", "maybe"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'activerehashing') - argument must be 'yes' or 'no'");
        assertThatThrownBy(() -> jedis.configSet("maxmemory-policy", "bogus"))
                .hasMessageContaining("argument(s) must be one of the following: volatile-lru,");
        assertThatThrownBy(() -> jedis.configSet("hz", "x"))
                .hasMessageContaining("argument couldn't be parsed into an integer");
        assertThatThrownBy(() -> Raw.call(jedis, "CONFIG", "SET", "hz")).hasMessage("ERR wrong number of arguments for 'config|set' command");
        assertThatThrownBy(() -> Raw.call(jedis, "CONFIG", "SET", "hz", "1", "x")).hasMessage("ERR syntax error");
    }

    @Test
    void everyParameterCanBeSetToItsOwnValue() {
        List<String> skip = List.of("daemonize", "databases", "dir", "dbfilename", "replicaof", "slaveof", "requirepass");
        for (Map.Entry<String, String> e : jedis.configGet("*").entrySet()) {
            if (skip.contains(e.getKey())) {
                continue;
            }
            try {
                jedis.configSet(e.getKey(), e.getValue());
            } catch (JedisDataException ex) {
                assertThat(ex.getMessage()).as(e.getKey()).contains("immutable");
            }
        }
        assertThat(jedis.ping()).isEqualTo("PONG");
    }

    @Test
    void persistenceParametersTellTheTruth() {
        assertThat(jedis.configGet("save")).containsEntry("save", "");
        assertThat(jedis.configSet("appendonly", "yes", "save", "3600 1")).isEqualTo("OK");
        // save keeps what was set (Redis's introspection unit reads it back), without effect
        assertThat(jedis.configGet("appendonly", "save")).containsEntry("appendonly", "no").containsEntry("save", "3600 1");
        jedis.configSet("save", "");
        assertThatThrownBy(() -> jedis.configSet("save", "1")).hasMessageContaining("Invalid save parameters");
    }

    @Test
    void requirepassTakesEffectForNewConnections() {
        jedis.configSet("requirepass", "s3cret");
        try (Jedis other = server.jedis()) {
            assertThatThrownBy(other::ping).hasMessageStartingWith("NOAUTH");
            assertThatThrownBy(() -> other.auth("wrong")).hasMessageStartingWith("WRONGPASS");
            assertThat(other.auth("s3cret")).isEqualTo("OK");
            assertThat(other.ping()).isEqualTo("PONG");
        }
        assertThat(jedis.ping()).isEqualTo("PONG");
        jedis.configSet("requirepass", "");
        try (Jedis other = server.jedis()) {
            assertThat(other.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void binaryPasswordsCompareAsBytes() throws Exception {
        try (RespSocket c = new RespSocket(server.port())) {
            c.send("*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$11\r\nrequirepass\r\n$7\r\nabc\0def\r\n");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
            c.command("AUTH", "abc");
            assertThat(c.reply()).startsWith("-WRONGPASS");
            c.send("*2\r\n$4\r\nAUTH\r\n$7\r\nabc\0def\r\n");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
        }
    }

    @Test
    void protoMaxBulkLenAppliesToTheNextRequest() throws Exception {
        jedis.configSet("proto-max-bulk-len", "1mb");
        try (RespSocket c = new RespSocket(server.port())) {
            c.send("*2\r\n$4\r\nECHO\r\n$2000000\r\n");
            assertThat(c.reply()).isEqualTo("-ERR Protocol error: invalid bulk length\r\n");
        }
        assertThatThrownBy(() -> jedis.configSet("proto-max-bulk-len", "1000"))
                .hasMessageContaining("argument must be between 1048576 and");
    }

    @Test
    void maxclientsRefusesConnectionsBeyondIt() throws Exception {
        jedis.configSet("maxclients", "2");
        try (Jedis second = server.jedis()) {
            assertThat(second.ping()).isEqualTo("PONG");
            try (RespSocket third = new RespSocket(server.port())) {
                assertThat(third.reply()).isEqualTo("-ERR max number of clients reached\r\n");
                assertThat(third.closedByServer()).isTrue();
            }
        }
        assertThat(jedis.info("stats")).contains("rejected_connections:1");
    }

    @Test
    void timeoutClosesIdleClients() throws Exception {
        jedis.configSet("timeout", "1");
        try (RespSocket idle = new RespSocket(server.port())) {
            idle.command("PING");
            assertThat(idle.reply()).isEqualTo("+PONG\r\n");
            server.advanceMillis(2_000);
            assertThat(idle.closedByServer()).isTrue();
        }
    }

    @Test
    void portMovesTheListener() throws Exception {
        int free;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            free = s.getLocalPort();
        }
        jedis.configSet("port", Integer.toString(free));
        try (Jedis moved = new Jedis("127.0.0.1", free)) {
            assertThat(moved.ping()).isEqualTo("PONG");
        }
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
            assertThatThrownBy(() -> jedis.configSet("port", Integer.toString(taken.getLocalPort()), "maxmemory", "5"))
                    .hasMessageStartingWith("ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port");
        }
        assertThat(jedis.configGet("port")).containsEntry("port", Integer.toString(free));
        assertThat(jedis.configGet("maxmemory")).containsEntry("maxmemory", "0");
    }

    @Test
    void rewriteNeedsAConfigFile() {
        assertThatThrownBy(jedis::configRewrite).hasMessage("ERR The server is running without a config file");
    }

    @Test
    void rewriteUpdatesTheConfigFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("redis.conf");
        Files.writeString(file, "# mine\nmaxmemory 1mb\nport 0\n");
        try (RunningServer withFile = RunningServer.start(RedisConfig.defaults().withConfigFile(file.toString())
                .withParameter("maxmemory", "1mb"));
             Jedis j = withFile.jedis()) {
            j.configSet("maxmemory", "2mb", "hash-max-listpack-entries", "7");
            assertThat(j.configRewrite()).isEqualTo("OK");
        }
        String text = Files.readString(file);
        assertThat(text).startsWith("# mine\nmaxmemory 2097152\n").contains("\nhash-max-listpack-entries 7\n");
    }

    @Test
    void unknownParametersRefuseToStart() {
        assertThatThrownBy(() -> RunningServer.start(RedisConfig.defaults().withParameter("nosuch", "1")))
                .hasMessageContaining("unknown configuration parameter 'nosuch'");
        assertThatThrownBy(() -> RunningServer.start(RedisConfig.defaults().withParameter("hz", "x")))
                .hasMessageContaining("argument couldn't be parsed into an integer");
    }
}
