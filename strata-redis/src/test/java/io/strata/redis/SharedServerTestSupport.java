package io.strata.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import redis.clients.jedis.Jedis;

/**
 * A fixture for command tests that can share a server: one server on an in-memory engine for
 * the whole class, emptied before each test, and one Jedis connection to it.
 */
abstract class SharedServerTestSupport {
    protected static RunningServer server;
    protected static Jedis jedis;

    @BeforeAll
    static void startServer() throws Exception {
        server = RunningServer.start();
        jedis = server.jedis();
    }

    @AfterAll
    static void stopServer() {
        jedis.close();
        server.close();
    }

    @BeforeEach
    void empty() {
        jedis.flushAll();
    }
}
