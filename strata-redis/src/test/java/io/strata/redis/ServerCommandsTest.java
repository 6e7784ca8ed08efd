package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.command.RedisConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** ROLE, WAIT, SWAPDB, the cluster commands, LATENCY, MEMORY, DEBUG, FUNCTION/SCRIPT and unsupported features. */
class ServerCommandsTest extends ServerTestSupport {

    @Test
    void roleAndWaitAnswerAsAMasterWithoutReplicas() {
        assertThat(Raw.call(jedis, "ROLE")).isEqualTo(List.of("master", 0L, List.of()));
        assertThat(Raw.call(jedis, "WAIT", "0", "0")).isEqualTo(0L);
        long start = System.nanoTime();
        assertThat(Raw.call(jedis, "WAIT", "1", "50")).isEqualTo(0L);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(45_000_000L);
        assertThatThrownBy(() -> Raw.call(jedis, "WAIT", "1", "-1")).hasMessage("ERR timeout is negative");
    }

    @Test
    void swapdbSwapsTwoDatabasesWholeAndIsCheckedAsRedisChecksIt() {
        assertThatThrownBy(() -> Raw.call(jedis, "SWAPDB", "x", "1")).hasMessage("ERR invalid first DB index");
        assertThatThrownBy(() -> Raw.call(jedis, "SWAPDB", "0", "x")).hasMessage("ERR invalid second DB index");
        assertThatThrownBy(() -> Raw.call(jedis, "SWAPDB", "0", "99")).hasMessage("ERR DB index is out of range");
        assertThat(Raw.call(jedis, "SWAPDB", "1", "1")).isEqualTo("OK");
        jedis.set("only-in-0", "a");
        jedis.hset("h", "f", "v");
        jedis.pexpire("h", 100_000);
        jedis.select(1);
        jedis.zadd("z", 1, "m");
        assertThat(Raw.call(jedis, "SWAPDB", "0", "1")).isEqualTo("OK");
        assertThat(jedis.get("only-in-0")).isEqualTo("a");
        assertThat(jedis.hget("h", "f")).isEqualTo("v");
        assertThat(jedis.pttl("h")).isPositive();
        assertThat(jedis.exists("z")).isFalse();
        assertThat(jedis.dbSize()).isEqualTo(2);
        jedis.select(0);
        assertThat(jedis.zscore("z", "m")).isEqualTo(1.0);
        assertThat(jedis.dbSize()).isEqualTo(1);
        assertThat(jedis.exists("only-in-0")).isFalse();
    }

    @Test
    void bgrewriteaofAndLolwutAnswerAsRedis() {
        assertThat(Raw.call(jedis, "BGREWRITEAOF")).isEqualTo("Background append only file rewriting started");
        assertThat(Raw.call(jedis, "LOLWUT")).isEqualTo("Redis ver. 7.0.15\n");
        assertThat(Raw.call(jedis, "LOLWUT", "VERSION", "5", "1", "2", "3")).isEqualTo("Redis ver. 7.0.15\n");
        assertThatThrownBy(() -> Raw.call(jedis, "LOLWUT", "VERSION", "x")).hasMessage("ERR value is not an integer or out of range");
    }

    @Test
    void clusterCommandsAnswerAsAServerWithoutClusterSupport() {
        for (String[] c : new String[][] {{"CLUSTER", "INFO"}, {"CLUSTER", "SLOTS"}, {"READONLY"}, {"READWRITE"}, {"ASKING"}}) {
            assertThatThrownBy(() -> Raw.call(jedis, c)).hasMessage("ERR This instance has cluster support disabled");
        }
    }

    @Test
    void unsupportedFeaturesAreUnknownCommandsThatSayWhy() {
        assertThatThrownBy(() -> Raw.call(jedis, "PSYNC", "?", "-1"))
                .hasMessage("ERR unknown command 'PSYNC', with args beginning with: '?' '-1' "
                        + "(replication is not supported by Strata's Redis-compatible server)");
        assertThatThrownBy(() -> Raw.call(jedis, "MODULE", "LIST")).hasMessageContaining("modules are not supported");
        assertThatThrownBy(() -> Raw.call(jedis, "RESTORE-ASKING", "k", "0", "x")).hasMessageContaining("cluster mode is not supported");
        assertThat(Raw.call(jedis, "PFADD", "h", "a")).as("HyperLogLogs are offered").isEqualTo(1L);
        assertThatThrownBy(() -> Raw.call(jedis, "NOSUCH")).hasMessage("ERR unknown command 'NOSUCH', with args beginning with: ");
        assertThat(Raw.call(jedis, "CLIENT", "TRACKING", "off")).as("client-side caching is offered").isEqualTo("OK");
        assertThat(Raw.call(jedis, "CLIENT", "UNPAUSE")).as("client pausing is offered").isEqualTo("OK");
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "NOSUCH")).hasMessage("ERR unknown subcommand 'NOSUCH'. Try CLIENT HELP.");
    }

    @Test
    void replicaofNoOneIsAcceptedByThisMasterAndFollowingAnotherServerIsRefused() {
        // Redis on a master answers OK to NO ONE and changes nothing; this server is always a master.
        assertThat(Raw.call(jedis, "REPLICAOF", "no", "one")).isEqualTo("OK");
        assertThat(Raw.call(jedis, "SLAVEOF", "NO", "ONE")).isEqualTo("OK");
        assertThat(Raw.call(jedis, "ROLE")).isEqualTo(List.of("master", 0L, List.of()));
        // The port is checked as Redis checks it, before the refusal.
        assertThatThrownBy(() -> Raw.call(jedis, "REPLICAOF", "localhost", "x")).hasMessage("ERR Invalid master port");
        assertThatThrownBy(() -> Raw.call(jedis, "REPLICAOF", "localhost", "65536")).hasMessage("ERR Invalid master port");
        assertThatThrownBy(() -> Raw.call(jedis, "SLAVEOF", "localhost", "-1")).hasMessage("ERR Invalid master port");
        assertThatThrownBy(() -> Raw.call(jedis, "REPLICAOF", "localhost", "6379"))
                .hasMessage("ERR REPLICAOF host port is not supported: replication is not supported by Strata's Redis-compatible server");
        assertThatThrownBy(() -> Raw.call(jedis, "SLAVEOF", "localhost", "0"))
                .hasMessage("ERR SLAVEOF host port is not supported: replication is not supported by Strata's Redis-compatible server");
        assertThat(Raw.call(jedis, "ROLE")).as("still a master").isEqualTo(List.of("master", 0L, List.of()));
        assertThatThrownBy(() -> Raw.call(jedis, "REPLICAOF", "no")).hasMessage("ERR wrong number of arguments for 'replicaof' command");
    }

    @Test
    void functionAndScriptManagementAnswerWhenEmpty() {
        assertThat(Raw.call(jedis, "FUNCTION", "FLUSH")).isEqualTo("OK");
        assertThat(Raw.call(jedis, "FUNCTION", "LIST")).isEqualTo(List.of());
        assertThat(Raw.call(jedis, "SCRIPT", "FLUSH", "ASYNC")).isEqualTo("OK");
        assertThat(Raw.call(jedis, "SCRIPT", "EXISTS", "abc", "def")).isEqualTo(List.of(0L, 0L));
        assertThatThrownBy(() -> Raw.call(jedis, "SCRIPT", "KILL")).hasMessage("NOTBUSY No scripts in execution right now.");
        assertThatThrownBy(() -> Raw.call(jedis, "FUNCTION", "LOAD", "#!lua name=x\n")).hasMessage("ERR No functions registered");
        assertThat(jedis.functionDump()).as("no libraries: the payload's footer alone").hasSize(10);
        assertThat(jedis.functionRestore(jedis.functionDump())).isEqualTo("OK");
        assertThatThrownBy(() -> Raw.call(jedis, "FUNCTION", "FLUSH", "NOW")).hasMessage("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
    }

    @Test
    void latencyHistogramCountsEachCommandsCalls() {
        jedis.set("k", "v");
        List<Object> histogram = Raw.list(Raw.call(jedis, "LATENCY", "HISTOGRAM", "set"));
        assertThat(histogram.get(0)).isEqualTo("set");
        assertThat(Raw.list(histogram.get(1)).subList(0, 2)).containsExactly("calls", 1L);
    }

    /**
     * The latency monitor records nothing while {@code latency-monitor-threshold} is 0 (the
     * default); above it, a command that takes that long (DEBUG SLEEP) is a {@code command}
     * sample, which LATEST, HISTORY, GRAPH and DOCTOR report and RESET forgets.
     */
    @Test
    void latencyRecordsCommandsThatTakeTheThresholdOrMore() throws Exception {
        try (RunningServer debug = RunningServer.start(RedisConfig.defaults().withParameter("enable-debug-command", "yes"));
             Jedis j = debug.jedis()) {
            Raw.call(j, "DEBUG", "SLEEP", "0.03");
            assertThat(Raw.call(j, "LATENCY", "LATEST")).isEqualTo(List.of());
            assertThat((String) Raw.call(j, "LATENCY", "DOCTOR")).contains("monitor is off");
            j.configSet("latency-monitor-threshold", "20");
            Raw.call(j, "DEBUG", "SLEEP", "0.03");
            j.set("k", "v");
            List<Object> latest = Raw.list(Raw.call(j, "LATENCY", "LATEST"));
            assertThat(latest).hasSize(1);
            List<Object> command = Raw.list(latest.get(0));
            assertThat(command.get(0)).isEqualTo("command");
            assertThat((Long) command.get(2)).isBetween(30L, 5_000L);
            assertThat(command.get(3)).isEqualTo(command.get(2));
            List<Object> history = Raw.list(Raw.call(j, "LATENCY", "HISTORY", "command"));
            assertThat(history).hasSize(1);
            assertThat(Raw.list(history.get(0))).containsExactly(command.get(1), command.get(2));
            assertThat((String) Raw.call(j, "LATENCY", "GRAPH", "command")).startsWith("command - high " + command.get(2) + " ms");
            assertThat((String) Raw.call(j, "LATENCY", "DOCTOR")).contains("1. command: 1 sample, average");
            assertThatThrownBy(() -> Raw.call(j, "LATENCY", "GRAPH", "nosuch")).hasMessage("ERR No samples available for event 'nosuch'");
            assertThat(Raw.call(j, "LATENCY", "HISTORY", "nosuch")).isEqualTo(List.of());
            assertThat(Raw.call(j, "LATENCY", "RESET", "nosuch")).isEqualTo(0L);
            assertThat(Raw.call(j, "LATENCY", "RESET")).isEqualTo(1L);
            assertThat(Raw.call(j, "LATENCY", "LATEST")).isEqualTo(List.of());
        }
    }

    /** A pass of active expiry that takes the threshold or more is an {@code expire-cycle} sample. */
    @Test
    void latencyRecordsActiveExpiryPasses() throws Exception {
        try (RunningServer s = RunningServer.start(); Jedis j = s.jedis()) {
            redis.clients.jedis.Pipeline p = j.pipelined();
            for (int i = 0; i < 3_000; i++) {
                p.psetex("k" + i, 1_000, "v");
            }
            p.sync();
            j.configSet("latency-monitor-threshold", "1");
            s.advanceMillis(2_000);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (j.dbSize() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(j.dbSize()).isZero();
            List<Object> events = new java.util.ArrayList<>();
            for (Object e : Raw.list(Raw.call(j, "LATENCY", "LATEST"))) {
                events.add(Raw.list(e).get(0));
            }
            assertThat(events).contains("expire-cycle");
        }
    }

    @Test
    void memoryUsageEstimatesAKeysSize() {
        jedis.set("k", "x".repeat(1000));
        long usage = (Long) Raw.call(jedis, "MEMORY", "USAGE", "k");
        assertThat(usage).isBetween(1000L, 1200L);
        assertThat(Raw.call(jedis, "MEMORY", "USAGE", "nosuch")).isNull();
        assertThatThrownBy(() -> Raw.call(jedis, "MEMORY", "USAGE", "k", "bogus")).hasMessage("ERR syntax error");
        assertThat(Raw.list(Raw.call(jedis, "MEMORY", "STATS"))).contains("keys.count", 1L);
    }

    @Test
    void debugIsProtectedAsInRedis() throws Exception {
        assertThatThrownBy(() -> Raw.call(jedis, "DEBUG", "SLEEP", "0")).hasMessageStartingWith("ERR DEBUG command not allowed.");
        try (RunningServer debug = RunningServer.start(RedisConfig.defaults().withParameter("enable-debug-command", "yes"));
             Jedis j = debug.jedis()) {
            assertThat(Raw.call(j, "DEBUG", "SLEEP", "0.01")).isEqualTo("OK");
            assertThat(Raw.call(j, "DEBUG", "PROTOCOL", "array")).isEqualTo(List.of(0L, 1L, 2L));
            assertThatThrownBy(() -> Raw.call(j, "DEBUG", "RELOAD")).hasMessageContaining("DEBUG RELOAD is not supported");
        }
    }

    @Test
    void shutdownAnswersNothingAndStopsTheServer() throws Exception {
        assertThatThrownBy(() -> Raw.call(jedis, "SHUTDOWN", "ABORT")).hasMessage("ERR No shutdown in progress.");
        assertThatThrownBy(() -> Raw.call(jedis, "SHUTDOWN", "SAVE", "NOSAVE")).hasMessage("ERR syntax error");
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
            s.getOutputStream().write("*1\r\n$8\r\nSHUTDOWN\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.setSoTimeout(10_000);
            assertThat(s.getInputStream().read()).as("no reply, the connection closes").isEqualTo(-1);
        }
        server.server.stopped().get(10, java.util.concurrent.TimeUnit.SECONDS);
    }
}
