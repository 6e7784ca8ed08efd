package io.strata.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests whose keys fall in several lanes — MSETs of keys spread over the keyspace, pipelines
 * of them — from many connections at once: every MSET stays atomic and every connection's
 * requests run in the order sent, whether a unit runs optimistically in its first key's lane
 * or in the cross-lane lane, and while the server switches between the two (a small keyspace
 * makes concurrent batches conflict, which is what makes it switch).
 */
class CrossLaneBatchesTest {
    private static final int GROUPS = 12;
    private static final int KEYS_PER_GROUP = 10;
    private static RunningServer server;

    @BeforeAll
    static void start() throws Exception {
        server = RunningServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void pipelinedMsetsOverManyLanesStayAtomicAndInOrder() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                work.add(pool.submit(() -> write(writer, 150)));
            }
            for (int r = 0; r < 2; r++) {
                work.add(pool.submit(() -> read(300)));
            }
            for (Future<?> f : work) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        try (Jedis jedis = server.jedis()) {
            for (int g = 0; g < GROUPS; g++) {
                List<String> values = jedis.mget(group(g));
                assertThat(values).as("group %d", g).doesNotContainNull().containsOnly(values.get(0));
            }
            for (int w = 0; w < 4; w++) {
                assertThat(jedis.get("done:" + w)).isEqualTo("150");
            }
        }
    }

    /** Rounds of 16 pipelined MSETs, each of a whole group with one token, then a counter SET. */
    private static Void write(int writer, int rounds) {
        try (Jedis jedis = server.jedis()) {
            for (int round = 1; round <= rounds; round++) {
                Pipeline p = jedis.pipelined();
                List<Response<String>> replies = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    int g = ThreadLocalRandom.current().nextInt(GROUPS);
                    String token = writer + ":" + round + ":" + i;
                    String[] kv = new String[KEYS_PER_GROUP * 2];
                    String[] keys = group(g);
                    for (int k = 0; k < KEYS_PER_GROUP; k++) {
                        kv[2 * k] = keys[k];
                        kv[2 * k + 1] = token;
                    }
                    replies.add(p.mset(kv));
                }
                // In the same pipeline: the progress counter must never run ahead of the MSETs.
                replies.add(p.set("done:" + writer, Integer.toString(round)));
                Response<String> progress = p.get("done:" + writer);
                p.sync();
                assertThat(replies).allMatch(r -> r.get().equals("OK"));
                assertThat(progress.get()).isEqualTo(Integer.toString(round));
            }
        }
        return null;
    }

    /** MGETs of whole groups: a group is always written whole, so all its values are equal. */
    private static Void read(int reads) {
        try (Jedis jedis = server.jedis()) {
            for (int i = 0; i < reads; i++) {
                int g = ThreadLocalRandom.current().nextInt(GROUPS);
                List<String> values = jedis.mget(group(g));
                if (values.get(0) != null) {
                    assertThat(values).as("group %d read whole", g).containsOnly(values.get(0));
                } else {
                    assertThat(values).as("group %d not yet written", g).containsOnlyNulls();
                }
            }
        }
        return null;
    }

    /** A group's keys: names chosen so that they spread over the lanes. */
    private static String[] group(int g) {
        String[] keys = new String[KEYS_PER_GROUP];
        for (int k = 0; k < KEYS_PER_GROUP; k++) {
            keys[k] = "g" + g + ":k" + k;
        }
        return keys;
    }
}
