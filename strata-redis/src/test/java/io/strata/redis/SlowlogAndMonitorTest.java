package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** SLOWLOG, MONITOR and CLIENT REPLY as Redis 7.0 behaves. */
class SlowlogAndMonitorTest extends ServerTestSupport {

    /** The commands an EXEC ran are logged before the blocked command it served, as in Redis. */
    @Test
    void aBlockedCommandServedByExecIsLoggedAfterTheExecsCommands() throws Exception {
        jedis.configSet("slowlog-log-slower-than", "0");
        try (redis.clients.jedis.Jedis waiter = server.jedis()) {
            java.util.concurrent.CompletableFuture<List<String>> served =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> waiter.blpop(0, "l"));
            Thread.sleep(300);
            redis.clients.jedis.Transaction multi = jedis.multi();
            multi.lpush("l", "foo");
            multi.exec();
            assertThat(served.get(10, java.util.concurrent.TimeUnit.SECONDS)).containsExactly("l", "foo");
        }
        List<Object> newest = Raw.list(Raw.list(Raw.call(jedis, "SLOWLOG", "GET", "2")).get(0));
        assertThat(newest.get(3)).isEqualTo(List.of("BLPOP", "l", "0"));
    }

    /**
     * A blocking command is slow-logged when it is served, with the time its tries took, not
     * its wait (Redis's updateStatsOnUnblock), and not at all when it times out.
     */
    @Test
    void aServedBlockingCommandIsLoggedWithoutItsWait() throws Exception {
        jedis.configSet("slowlog-log-slower-than", "0");
        try (redis.clients.jedis.Jedis waiter = server.jedis(); redis.clients.jedis.Jedis timesOut = server.jedis()) {
            jedis.slowlogReset();
            assertThat(timesOut.blpop(0.2, "never")).isNull();
            java.util.concurrent.CompletableFuture<List<String>> served =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> waiter.blpop(0, "q"));
            Thread.sleep(300);
            jedis.lpush("q", "x");
            assertThat(served.get(10, java.util.concurrent.TimeUnit.SECONDS)).containsExactly("q", "x");
        }
        List<Object> entries = Raw.list(Raw.call(jedis, "SLOWLOG", "GET", "-1"));
        List<Object> blpop = entries.stream().map(Raw::list).filter(e -> e.get(3).equals(List.of("BLPOP", "q", "0")))
                .findFirst().orElseThrow(() -> new AssertionError("BLPOP not in the slow log: " + entries));
        // It waited at least 300 ms; what it is charged is the time its tries took.
        assertThat((Long) blpop.get(2)).isLessThan(300_000L);
        assertThat(entries.stream().map(Raw::list).noneMatch(e -> e.get(3).equals(List.of("BLPOP", "never", "0.2")))).isTrue();
    }

    @Test
    void slowlogRecordsCommandsOverTheThreshold() {
        assertThat(jedis.configGet("slowlog-log-slower-than")).containsEntry("slowlog-log-slower-than", "10000");
        jedis.configSet("slowlog-log-slower-than", "0");
        jedis.clientSetname("me");
        jedis.set("k", "v");
        List<Object> entries = Raw.list(Raw.call(jedis, "SLOWLOG", "GET", "2"));
        assertThat(entries).hasSize(2);
        List<Object> set = Raw.list(entries.get(0));
        assertThat(set).hasSize(6);
        assertThat(set.get(3)).isEqualTo(List.of("SET", "k", "v"));
        assertThat((String) set.get(4)).startsWith("127.0.0.1:");
        assertThat(set.get(5)).isEqualTo("me");
        assertThat((Long) set.get(0)).isGreaterThan((Long) Raw.list(entries.get(1)).get(0));
        assertThat(Math.abs((Long) set.get(1) - System.currentTimeMillis() / 1000)).isLessThan(5);
        assertThat(jedis.slowlogLen()).isGreaterThanOrEqualTo(3);
        jedis.slowlogReset();
        jedis.configSet("slowlog-log-slower-than", "-1");
        jedis.set("k", "v");
        assertThat(jedis.slowlogLen()).isLessThanOrEqualTo(1);
        assertThatThrownBy(() -> Raw.call(jedis, "SLOWLOG", "GET", "-2")).hasMessage("ERR count should be greater than or equal to -1");
    }

    @Test
    void slowlogShortensHugeCommandsAndRedactsSecrets() {
        jedis.configSet("slowlog-log-slower-than", "0");
        jedis.configSet("slowlog-max-len", "3");
        String[] args = new String[40];
        for (int i = 0; i < args.length; i++) {
            args[i] = i == 0 ? "x".repeat(200) : "a" + i;
        }
        jedis.mset(args);
        Raw.call(jedis, "CONFIG", "SET", "requirepass", "");
        List<Object> entries = Raw.list(Raw.call(jedis, "SLOWLOG", "GET", "-1"));
        assertThat(entries).hasSize(3);
        List<Object> config = Raw.list(Raw.list(entries.get(0)).get(3));
        assertThat(config).containsExactly("CONFIG", "SET", "requirepass", "(redacted)");
        List<Object> mset = Raw.list(Raw.list(entries.get(1)).get(3));
        assertThat(mset).hasSize(32);
        assertThat(mset.get(1)).isEqualTo("x".repeat(128) + "... (72 more bytes)");
        assertThat(mset.get(31)).isEqualTo("... (10 more arguments)");
    }

    @Test
    void monitorStreamsOtherClientsCommandsInRedisFormat() throws Exception {
        try (RespSocket monitor = new RespSocket(server.port())) {
            monitor.command("MONITOR");
            assertThat(monitor.reply()).isEqualTo("+OK\r\n");
            jedis.set("k", "a \"b\"\n");
            jedis.get("k");
            jedis.auth("default", "nopass-needed");
            String line = monitor.reply();
            assertThat(line).matches("\\+\\d{10}\\.\\d{6} \\[0 127\\.0\\.0\\.1:\\d+\\] \"SET\" \"k\" \"a \\\\\"b\\\\\"\\\\n\"\r\n");
            assertThat(monitor.reply()).endsWith("\"GET\" \"k\"\r\n");
            assertThat(monitor.reply()).endsWith("\"AUTH\" \"(redacted)\" \"(redacted)\"\r\n");
            jedis.configGet("maxmemory");
            jedis.select(2);
            jedis.ping();
            assertThat(monitor.reply()).contains("\"SELECT\" \"2\"");
            assertThat(monitor.reply()).contains(" [2 127.0.0.1:").endsWith("\"PING\"\r\n");
        }
    }

    @Test
    void monitorShowsExecAfterTheCommandsItRan() throws Exception {
        try (RespSocket monitor = new RespSocket(server.port())) {
            monitor.command("MONITOR").reply();
            var t = jedis.multi();
            t.set("foo", "bar");
            t.exec();
            assertThat(monitor.reply()).endsWith("\"MULTI\"\r\n");
            assertThat(monitor.reply()).endsWith("\"SET\" \"foo\" \"bar\"\r\n");
            assertThat(monitor.reply()).endsWith("\"EXEC\"\r\n");
        }
    }

    /**
     * A script's commands run on another thread than the connection's; their lines must still
     * come between the script's line and the next command's, as Redis runs them (ioredis's
     * "should load scripts first before execute pipeline" checks this order).
     */
    @Test
    void monitorShowsAScriptsCommandsBeforeTheNextCommandOfAPipeline() throws Exception {
        try (RespSocket monitor = new RespSocket(server.port()); RespSocket client = new RespSocket(server.port())) {
            monitor.command("MONITOR").reply();
            for (int i = 0; i < 30; i++) {
                client.send("*4\r\n$4\r\nEVAL\r\n$32\r\nreturn redis.call('get',KEYS[1])\r\n$1\r\n1\r\n$5\r\nmfoo1\r\n"
                        + "*4\r\n$4\r\nEVAL\r\n$38\r\nreturn redis.call('set',KEYS[1],'bar')\r\n$1\r\n1\r\n$5\r\nmfoo1\r\n"
                        + "*2\r\n$3\r\nGET\r\n$5\r\nmfoo1\r\n");
                client.reply();
                client.reply();
                assertThat(client.reply()).isEqualTo("$3\r\nbar\r\n");
                assertThat(monitor.reply()).contains("\"EVAL\" \"return redis.call('get'");
                assertThat(monitor.reply()).endsWith("[0 lua] \"get\" \"mfoo1\"\r\n");
                assertThat(monitor.reply()).contains("\"EVAL\" \"return redis.call('set'");
                assertThat(monitor.reply()).endsWith("[0 lua] \"set\" \"mfoo1\" \"bar\"\r\n");
                assertThat(monitor.reply()).endsWith("\"GET\" \"mfoo1\"\r\n");
            }
        }
    }

    @Test
    void clientReplyOffOnAndSkip() throws Exception {
        try (RespSocket c = new RespSocket(server.port())) {
            c.command("CLIENT", "REPLY", "OFF").command("PING", "a").command("CLIENT", "REPLY", "ON");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
            c.command("CLIENT", "REPLY", "SKIP").command("PING", "b").command("PING", "c");
            assertThat(c.reply()).isEqualTo("$1\r\nc\r\n");
            c.command("CLIENT", "REPLY", "SKIP").command("CLIENT", "REPLY", "ON");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
        }
    }

    @Test
    void clientListShowsTheRunningCommandAndItsQueryBuffer() {
        String line = (String) Raw.call(jedis, "CLIENT", "LIST");
        assertThat(line).contains(" qbuf=26 ", " cmd=client|list ", " flags=N ", " multi=-1 ", " resp=2");
        assertThat((String) Raw.call(jedis, "CLIENT", "INFO")).contains(" qbuf=26 ", " cmd=client|info ");
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "KILL")).hasMessage("ERR wrong number of arguments for 'client|kill' command");
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "KILL", "USER", "nobody")).hasMessage("ERR No such user 'nobody'");
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "KILL", "TYPE", "bogus")).hasMessage("ERR Unknown client type 'bogus'");
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "NOSUCH")).hasMessage("ERR unknown subcommand 'NOSUCH'. Try CLIENT HELP.");
    }
}
