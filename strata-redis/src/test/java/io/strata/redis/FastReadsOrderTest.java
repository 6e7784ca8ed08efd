package io.strata.redis;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lone fast read (GET, HGET, EXISTS...) is answered on the connection's event loop rather than
 * in a lane (FastReads). It must still see every write acknowledged before it was sent — to its
 * own connection or to any other — and keep a connection's order with the writes around it.
 */
class FastReadsOrderTest extends SharedServerTestSupport {

    @Test
    void aLoneReadSeesWhatWasAcknowledgedToAnotherConnection() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                String key = "fast:counter:" + w;
                workers.add(pool.submit(() -> {
                    try (Jedis writer = server.jedis(); Jedis reader = server.jedis()) {
                        for (int i = 0; i < 500; i++) {
                            long acknowledged = writer.incr(key);
                            // Another connection's read, sent after the write's reply.
                            assertThat(Long.parseLong(reader.get(key))).isGreaterThanOrEqualTo(acknowledged);
                            writer.hset("fast:hash:" + key, "f", Long.toString(acknowledged));
                            assertThat(reader.hget("fast:hash:" + key, "f")).isEqualTo(Long.toString(acknowledged));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : workers) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(jedis.get("fast:counter:0")).isEqualTo("500");
    }

    @Test
    void aConnectionsReadsAndWritesKeepTheirOrder() {
        try (Jedis c = server.jedis()) {
            for (int i = 0; i < 200; i++) {
                Pipeline p = c.pipelined();
                p.set("fast:k", "a" + i);
                Response<String> first = p.get("fast:k");
                p.set("fast:k", "b" + i);
                Response<Boolean> exists = p.exists("fast:k");
                p.sync();
                assertThat(first.get()).isEqualTo("a" + i);
                assertThat(exists.get()).isTrue();
                // Alone: a run of one fast read, after the pipeline's last write was answered.
                assertThat(c.get("fast:k")).isEqualTo("b" + i);
                c.del("fast:k");
                assertThat(c.exists("fast:k")).isFalse();
            }
        }
    }
}
