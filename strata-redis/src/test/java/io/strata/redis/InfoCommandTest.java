package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import io.strata.Strata;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.server.RedisServer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;

/** INFO: sections as Redis 7.0 names and selects them, with the server's real counters. */
class InfoCommandTest {
    private RunningServer server;
    private Jedis jedis;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start(RedisConfig.defaults().withDurable(false));
        jedis = server.jedis();
    }

    @AfterEach
    void stop() {
        jedis.close();
        server.close();
    }

    private static Map<String, String> fields(String info) {
        Map<String, String> m = new HashMap<>();
        for (String line : info.split("\r\n")) {
            int colon = line.indexOf(':');
            if (!line.startsWith("#") && colon > 0) {
                m.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return m;
    }

    private long changes() {
        return Long.parseLong(fields(jedis.info("persistence")).get("rdb_changes_since_last_save"));
    }

    @Test
    void changesSinceLastSaveCountCommittedChangesOnly() {
        long start = changes();
        jedis.setbit("bits", 0, false);
        jedis.incr("n");
        assertThat(changes()).as("a new key, an increment").isEqualTo(start + 2);
        jedis.setbit("bits", 0, false);
        jedis.get("n");
        jedis.get("missing");
        assertThat(changes()).as("no change, reads, a miss").isEqualTo(start + 2);
        redis.clients.jedis.Transaction multi = jedis.multi();
        multi.set("a", "1");
        multi.discard();
        assertThat(changes()).as("a discarded MULTI").isEqualTo(start + 2);
        jedis.save();
        assertThat(changes()).isZero();
        jedis.del("n", "nope");
        assertThat(changes()).isEqualTo(1);
    }

    @Test
    void defaultSectionsAreRedisDefaults() {
        String info = jedis.info();
        assertThat(info).contains("# Server\r\n", "# Clients\r\n", "# Memory\r\n", "# Persistence\r\n", "# Stats\r\n",
                "# Replication\r\n", "# CPU\r\n", "# Modules\r\n", "# Errorstats\r\n", "# Cluster\r\n", "# Keyspace\r\n");
        assertThat(info).doesNotContain("# Commandstats", "# Latencystats", "rejected_calls");
        Map<String, String> f = fields(info);
        assertThat(f).containsEntry("redis_version", "7.0.15").containsEntry("redis_mode", "standalone")
                .containsEntry("role", "master").containsEntry("connected_slaves", "0").containsEntry("loading", "0")
                .containsEntry("rdb_changes_since_last_save", "0").containsEntry("aof_enabled", "0")
                .containsEntry("tcp_port", Integer.toString(server.port())).containsEntry("arch_bits", "64")
                .containsEntry("strata_durable", "0").containsEntry("cluster_enabled", "0");
        assertThat(Long.parseLong(f.get("used_memory"))).isPositive();
        assertThat(f.get("process_id")).isEqualTo(Long.toString(ProcessHandle.current().pid()));
        assertThat(f).containsKeys("os", "uptime_in_seconds", "used_memory_human", "maxmemory", "mem_fragmentation_ratio",
                "used_cpu_user", "used_cpu_sys", "instantaneous_ops_per_sec", "expired_keys", "keyspace_hits", "keyspace_misses",
                "rejected_connections", "total_connections_received", "total_commands_processed", "blocked_clients");
    }

    @Test
    void persistenceNamesTheStorageEngineWhenTheServerKnowsIt() throws Exception {
        assertThat(fields(jedis.info("persistence"))).as("the test server's, as `strata serve redis` gives it")
                .containsEntry("strata_storage", "memory");
        try (Database db = Strata.inMemory()) {
            RedisServer unknown = RedisServer.start(db, RedisConfig.defaults().withPort(0));
            try (Jedis j = new Jedis("127.0.0.1", unknown.port())) {
                assertThat(fields(j.info("persistence"))).as("not given: not reported").doesNotContainKey("strata_storage");
            } finally {
                unknown.close();
            }
        }
        try (RunningServer ssd = RunningServer.start(RedisConfig.defaults().withStorage("ssd"));
             Jedis j = ssd.jedis()) {
            assertThat(fields(j.info("persistence"))).containsEntry("strata_storage", "ssd").containsEntry("strata_durable", "1");
        }
    }

    @Test
    void sectionsAreChosenByNameInAnyCaseWithoutRepeats() {
        assertThat(jedis.info("cpu")).startsWith("# CPU\r\n").doesNotContain("used_memory");
        assertThat(jedis.info("commandSTATS")).startsWith("# Commandstats\r\n");
        assertThat(jedis.info("nosuch")).isEmpty();
        String cpuAll = (String) Raw.call(jedis, "INFO", "cpu", "all");
        assertThat(cpuAll).contains("rejected_calls", "used_memory", "master_repl_offset");
        assertThat(cpuAll.indexOf("used_cpu_user_children")).isEqualTo(cpuAll.lastIndexOf("used_cpu_user_children"));
        assertThat((String) Raw.call(jedis, "INFO", "cpu", "default")).doesNotContain("rejected_calls").contains("used_memory");
        assertThat((String) Raw.call(jedis, "INFO", "everything")).contains("# Latencystats");
    }

    @Test
    void keyspaceCountsKeysAndExpiries() {
        jedis.set("a", "1");
        jedis.set("b", "2", SetParams.setParams().ex(100));
        jedis.select(3);
        jedis.set("c", "3", SetParams.setParams().px(100_000));
        jedis.persist("c");
        assertThat(jedis.info("keyspace")).isEqualTo("# Keyspace\r\ndb0:keys=2,expires=1,avg_ttl=0\r\ndb3:keys=1,expires=0,avg_ttl=0\r\n");
        jedis.expire("c", 50);
        jedis.select(0);
        jedis.del("b");
        assertThat(jedis.info("keyspace")).contains("db0:keys=1,expires=0,", "db3:keys=1,expires=1,");
        jedis.flushAll();
        assertThat(jedis.info("keyspace")).isEqualTo("# Keyspace\r\n");
    }

    @Test
    void commandAndErrorStatisticsCountCallsRejectionsAndFailures() {
        jedis.configResetStat();
        jedis.set("s", "x");
        assertThatThrownBy(() -> jedis.incr("s")).hasMessageContaining("not an integer");
        assertThatThrownBy(() -> Raw.call(jedis, "GET")).hasMessageContaining("wrong number");
        assertThatThrownBy(() -> Raw.call(jedis, "NOSUCH")).hasMessageContaining("unknown command");
        String stats = jedis.info("commandstats");
        assertThat(stats).contains("cmdstat_set:calls=1,usec=");
        assertThat(stats).containsPattern("cmdstat_incr:calls=1,usec=\\d+,usec_per_call=[\\d.]+,rejected_calls=0,failed_calls=1");
        assertThat(stats).contains("cmdstat_get:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,failed_calls=0");
        assertThat(jedis.info("errorstats")).isEqualTo("# Errorstats\r\nerrorstat_ERR:count=3\r\n");
        assertThat(fields(jedis.info("stats"))).containsEntry("total_error_replies", "3");
        jedis.configResetStat();
        assertThat(jedis.info("commandstats")).doesNotContain("cmdstat_set");
        assertThat(jedis.info("errorstats")).isEqualTo("# Errorstats\r\n");
    }

    @Test
    void commandsInsideExecAreCountedOneByOne() {
        jedis.configResetStat();
        var t = jedis.multi();
        t.set("k", "1");
        t.incr("k");
        t.exec();
        String stats = jedis.info("commandstats");
        assertThat(stats).contains("cmdstat_multi:calls=1,", "cmdstat_set:calls=1,", "cmdstat_incr:calls=1,", "cmdstat_exec:calls=1,");
    }

    @Test
    void clientsAndConnectionsAreCounted() throws Exception {
        try (Jedis other = server.jedis()) {
            other.ping();
            Map<String, String> f = fields(jedis.info("clients"));
            assertThat(f).containsEntry("connected_clients", "2").containsEntry("maxclients", "10000");
        }
    }

    @Test
    void resp3SendsInfoAsAVerbatimString() throws Exception {
        try (RespSocket c = new RespSocket(server.port())) {
            c.command("HELLO", "3").reply();
            assertThat(c.command("INFO", "cluster").reply()).isEqualTo("=34\r\ntxt:# Cluster\r\ncluster_enabled:0\r\n\r\n");
        }
    }
}
