package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** COMMAND and its subcommands over TCP, in Redis 7.0's reply shapes. */
class CommandIntrospectionTest {
    private static RunningServer server;
    private static Jedis jedis;

    @BeforeAll
    static void start() throws Exception {
        server = RunningServer.start();
        jedis = server.jedis();
    }

    @AfterAll
    static void stop() {
        jedis.close();
        server.close();
    }

    private static Object call(String... args) {
        return Raw.call(jedis, args);
    }

    @Test
    void countMatchesTheFullTable() {
        long count = (Long) call("COMMAND", "COUNT");
        assertThat(Raw.list(call("COMMAND"))).hasSize((int) count);
        assertThat(count).isGreaterThan(50);
    }

    @Test
    void infoOfGetHasRedisShape() {
        List<Object> info = Raw.list(Raw.list(call("COMMAND", "INFO", "get")).get(0));
        assertThat(info).hasSize(10);
        assertThat(info.subList(0, 2)).containsExactly("get", 2L);
        assertThat(Raw.list(info.get(2))).containsExactly("readonly", "fast");
        assertThat(info.subList(3, 6)).containsExactly(1L, 1L, 1L);
        assertThat(Raw.list(info.get(6))).containsExactly("@read", "@string", "@fast");
        assertThat(Raw.list(info.get(7))).isEmpty();
        List<Object> spec = Raw.list(Raw.list(info.get(8)).get(0));
        assertThat(spec).containsExactly("flags", List.of("RO", "access"),
                "begin_search", List.of("type", "index", "spec", List.of("index", 1L)),
                "find_keys", List.of("type", "range", "spec", List.of("lastkey", 0L, "keystep", 1L, "limit", 0L)));
        assertThat(Raw.list(info.get(9))).isEmpty();
    }

    @Test
    void infoOfUnknownNamesIsNil() {
        assertThat(Raw.list(call("COMMAND", "INFO", "get|key", "config|get|key", "nosuch"))).containsExactly(null, null, null);
    }

    @Test
    void infoOfAnUnknownNameIsANilBulkAsInRedis() throws Exception {
        // Redis's addReplyCommandInfo answers addReplyNull: $-1 in RESP2 (not *-1), _ in RESP3.
        try (RawConnection c = new RawConnection(server.port())) {
            c.send("COMMAND", "INFO", "nosuch");
            assertThat(c.line()).isEqualTo("*1");
            assertThat(c.line()).isEqualTo("$-1");
            c.resp3();
            c.send("COMMAND", "INFO", "nosuch");
            assertThat(c.line()).isEqualTo("*1");
            assertThat(c.line()).isEqualTo("_");
        }
    }

    @Test
    void infoOfAContainerListsItsSubcommands() {
        List<Object> config = Raw.list(Raw.list(call("COMMAND", "INFO", "config")).get(0));
        assertThat(config.subList(0, 2)).containsExactly("config", -2L);
        List<Object> subs = Raw.list(config.get(9));
        assertThat(subs).extracting(s -> Raw.list(s).get(0)).contains("config|get", "config|set", "config|resetstat", "config|rewrite");
        List<Object> get = Raw.list(Raw.list(call("COMMAND", "INFO", "config|get")).get(0));
        assertThat(get.subList(0, 2)).containsExactly("config|get", -3L);
        assertThat(Raw.list(get.get(6))).containsExactly("@admin", "@slow", "@dangerous");
    }

    @Test
    void movableKeysFollowTheKeySpecifications() {
        assertThat(flagsOf("set")).doesNotContain("movablekeys");
        assertThat(flagsOf("memory|usage")).doesNotContain("movablekeys");
        assertThat(flagsOf("ping")).doesNotContain("movablekeys");
    }

    private static List<Object> flagsOf(String command) {
        return Raw.list(Raw.list(Raw.list(call("COMMAND", "INFO", command)).get(0)).get(2));
    }

    @Test
    void docsGiveSummarySinceGroupAndArguments() {
        List<Object> docs = Raw.list(call("COMMAND", "DOCS", "set", "nosuch"));
        assertThat(docs).hasSize(2);
        assertThat(docs.get(0)).isEqualTo("set");
        List<Object> set = Raw.list(docs.get(1));
        assertThat(set.subList(0, 6)).contains("summary", "since", "1.0.0", "group", "string");
        List<Object> args = Raw.list(set.get(set.indexOf("arguments") + 1));
        assertThat(Raw.list(args.get(0))).containsExactly("name", "key", "type", "key", "key_spec_index", 0L);
        List<Object> condition = Raw.list(args.get(2));
        assertThat(condition.subList(0, 4)).containsExactly("name", "condition", "type", "oneof");
        assertThat(condition).contains("flags", List.of("optional"));
    }

    @Test
    void docsOfEveryCommandHaveSummarySinceAndGroup() {
        List<Object> all = Raw.list(call("COMMAND", "DOCS"));
        assertThat(all).hasSize(2 * ((Long) call("COMMAND", "COUNT")).intValue());
        for (int i = 1; i < all.size(); i += 2) {
            List<Object> doc = Raw.list(all.get(i));
            assertThat(doc).as("%s", all.get(i - 1)).contains("summary", "since", "group");
        }
    }

    @Test
    void listIncludesSubcommandsAndFilters() {
        assertThat(Raw.list(call("COMMAND", "LIST"))).contains("set", "client|list", "config|get");
        assertThat(Raw.list(call("COMMAND", "LIST", "FILTERBY", "PATTERN", "set"))).containsExactly("set");
        assertThat(Raw.list(call("COMMAND", "LIST", "FILTERBY", "PATTERN", "config|*re*"))).contains("config|resetstat", "config|rewrite");
        assertThat(Raw.list(call("COMMAND", "LIST", "FILTERBY", "ACLCAT", "string"))).contains("get", "set").doesNotContain("del");
        assertThat(Raw.list(call("COMMAND", "LIST", "FILTERBY", "ACLCAT", "nosuch"))).isEmpty();
        assertThat(Raw.list(call("COMMAND", "LIST", "FILTERBY", "MODULE", "x"))).isEmpty();
        assertThatThrownBy(() -> call("COMMAND", "LIST", "bad")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> call("COMMAND", "LIST", "FILTERBY", "bad", "x")).hasMessage("ERR syntax error");
    }

    @Test
    void getKeysFindsKeysFromTheSpecifications() {
        assertThat(Raw.list(call("COMMAND", "GETKEYS", "get", "key"))).containsExactly("key");
        assertThat(Raw.list(call("COMMAND", "GETKEYS", "mset", "a", "1", "b", "2"))).containsExactly("a", "b");
        assertThat(Raw.list(call("COMMAND", "GETKEYS", "memory", "usage", "key"))).containsExactly("key");
        assertThat(Raw.list(call("COMMAND", "GETKEYSANDFLAGS", "set", "k1", "v1")))
                .containsExactly(List.of("k1", List.of("OW", "update")));
        assertThat(Raw.list(call("COMMAND", "GETKEYSANDFLAGS", "set", "k1", "v1", "get")))
                .containsExactly(List.of("k1", List.of("RW", "access", "update")));
        assertThat(Raw.list(call("COMMAND", "GETKEYSANDFLAGS", "mset", "k1", "v1", "k2", "v2")))
                .containsExactly(List.of("k1", List.of("OW", "update")), List.of("k2", List.of("OW", "update")));
    }

    @Test
    void getKeysErrorsAreRedis() {
        assertThatThrownBy(() -> call("COMMAND", "GETKEYS", "nosuch", "x")).hasMessage("ERR Invalid command specified");
        assertThatThrownBy(() -> call("COMMAND", "GETKEYS", "ping", "x")).hasMessage("ERR The command has no key arguments");
        assertThatThrownBy(() -> call("COMMAND", "GETKEYS", "get", "a", "b"))
                .hasMessage("ERR Invalid number of arguments specified for command");
        assertThatThrownBy(() -> call("COMMAND", "GETKEYS", "get")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR wrong number of arguments for 'command|getkeys' command");
    }

    @Test
    void unknownSubcommandNamesTheContainer() {
        assertThatThrownBy(() -> call("COMMAND", "nosuch")).hasMessage("ERR unknown subcommand 'nosuch'. Try COMMAND HELP.");
        assertThatThrownBy(() -> call("CONFIG")).hasMessage("ERR wrong number of arguments for 'config' command");
        assertThat(Raw.list(call("COMMAND", "HELP")).get(0).toString()).startsWith("COMMAND <subcommand>");
    }

    @Test
    void clientLibrariesParseTheReplies() {
        assertThat(jedis.commandInfo("get", "config|get")).containsKeys("get", "config|get");
        assertThat(jedis.commandDocs("set")).containsKey("set");
        assertThat(jedis.commandGetKeys("mset", "a", "1", "b", "2")).containsExactly("a", "b");
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create("redis://127.0.0.1:" + server.port());
        try (var c = client.connect()) {
            var details = io.lettuce.core.models.command.CommandDetailParser.parse(c.sync().command());
            assertThat(details).extracting(io.lettuce.core.models.command.CommandDetail::getName).contains("get", "config");
            assertThat(c.sync().info("server")).contains("redis_version:7.0.15");
        } finally {
            client.shutdown();
        }
    }

    @Test
    void resp3RepliesFlagsAsSetsAndDocsAsMaps() throws Exception {
        try (RespSocket c = new RespSocket(server.port())) {
            c.command("HELLO", "3").reply();
            String info = c.command("COMMAND", "INFO", "get").reply();
            assertThat(info).startsWith("*1\r\n*10\r\n$3\r\nget\r\n:2\r\n~2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n"
                    + "~3\r\n+@read\r\n+@string\r\n+@fast\r\n~0\r\n~1\r\n%3\r\n$5\r\nflags\r\n~2\r\n+RO\r\n+access\r\n");
            String docs = c.command("COMMAND", "DOCS", "get").reply();
            assertThat(docs).startsWith("%1\r\n$3\r\nget\r\n%");
        }
    }
}
