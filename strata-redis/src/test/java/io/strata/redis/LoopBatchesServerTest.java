package io.strata.redis;

import com.apple.foundationdb.Database;
import io.strata.MvccWindow;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.server.RedisServer;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unpipelined writes, whose batches the event loop runs and commits itself
 * ({@code LoopBatches}): a batch whose one attempt there fails goes back to its lane's thread
 * and is retried, so every write lands exactly once; and clients that pipeline, whose batches
 * run on the lane's thread, share keys with them without any connection's commands running out
 * of order.
 */
class LoopBatchesServerTest {
    private static final int CLIENTS = 12;
    private static final int WRITES = 150;

    @Test
    void everyUnpipelinedWriteLandsOnceWhenCommitsFail() throws Exception {
        // One commit in five fails without committing (1020), one in twenty is too old (1007):
        // faults that a retry cures, so each write must be applied exactly once.
        FaultPolicy faults = FaultPolicy.seeded(17).notCommitted(0.2).transactionTooOld(0.05).build();
        try (Database db = Strata.builder().faults(faults).mvccWindow(MvccWindow.OPEN_TRANSACTIONS).inMemory()) {
            RedisServer server = RedisServer.start(db, RedisConfig.defaults().withPort(0).withStorage("memory")); // as `strata serve redis`
            try {
                runClients(CLIENTS, c -> {
                    try (Jedis jedis = new Jedis("127.0.0.1", server.port(), 30_000)) {
                        long last = 0;
                        for (int i = 0; i < WRITES; i++) {
                            long n = jedis.incr("counter");
                            assertThat(n).isGreaterThan(last);
                            last = n;
                            jedis.hincrBy("hash", "field", 1);
                            jedis.rpush("list", c + ":" + i);
                        }
                    }
                });
                assertThat(server.stats().loopBatches.sum()).as("batches the event loop ran").isPositive();
                assertThat(server.stats().loopBatchesHandedBack.sum()).as("of which failed there, rerun on the lane's thread").isPositive();
                try (Jedis jedis = new Jedis("127.0.0.1", server.port(), 30_000)) {
                    assertThat(jedis.get("counter")).isEqualTo(String.valueOf(CLIENTS * WRITES));
                    assertThat(jedis.hget("hash", "field")).isEqualTo(String.valueOf(CLIENTS * WRITES));
                    assertEachClientsItemsInOrder(jedis.lrange("list", 0, -1));
                }
            } finally {
                server.close();
            }
        }
    }

    @Test
    void pipelinedAndUnpipelinedClientsOfOneKeyEachKeepTheirOrder() throws Exception {
        try (RunningServer server = RunningServer.start()) {
            runClients(CLIENTS, c -> {
                try (Jedis jedis = server.jedis()) {
                    if (c % 3 == 0) {
                        // Pipelined: its batches run on the lane's thread, between the loop's.
                        for (int round = 0; round < WRITES / 10; round++) {
                            Pipeline p = jedis.pipelined();
                            List<Response<Long>> counts = new ArrayList<>();
                            for (int i = 0; i < 10; i++) {
                                counts.add(p.incr("shared"));
                                p.rpush("order", c + ":" + (round * 10 + i));
                            }
                            p.sync();
                            for (int i = 1; i < counts.size(); i++) {
                                assertThat(counts.get(i).get()).isGreaterThan(counts.get(i - 1).get());
                            }
                        }
                    } else {
                        for (int i = 0; i < WRITES; i++) {
                            jedis.incr("shared");
                            jedis.rpush("order", c + ":" + i);
                            assertThat(jedis.lindex("order", -1)).isNotNull();
                        }
                    }
                }
            });
            assertThat(server.server.stats().loopBatches.sum()).as("batches the event loop ran").isPositive();
            try (Jedis jedis = server.jedis()) {
                assertThat(jedis.get("shared")).isEqualTo(String.valueOf(CLIENTS * WRITES));
                assertEachClientsItemsInOrder(jedis.lrange("order", 0, -1));
            }
        }
    }

    /** Every client's items ({@code client:i}) are all there, each once, in the order it pushed them. */
    private static void assertEachClientsItemsInOrder(List<String> items) {
        assertThat(items).hasSize(CLIENTS * WRITES).doesNotHaveDuplicates();
        int[] next = new int[CLIENTS];
        for (String item : items) {
            String[] parts = item.split(":");
            int client = Integer.parseInt(parts[0]);
            assertThat(Integer.parseInt(parts[1])).as("client %d's next item", client).isEqualTo(next[client]);
            next[client]++;
        }
    }

    private interface Client {
        void run(int client) throws Exception;
    }

    private static void runClients(int clients, Client body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                all.add(pool.submit(() -> {
                    body.run(client);
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
