package io.strata.redis;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import redis.clients.jedis.Jedis;

/**
 * The usual fixture of a command test: a fresh server on an in-memory engine and one Jedis
 * connection to it, both closed after each test.
 */
abstract class ServerTestSupport {
    protected RunningServer server;
    protected Jedis jedis;

    @BeforeEach
    void startServer() throws Exception {
        server = RunningServer.start();
        jedis = server.jedis();
    }

    @AfterEach
    void stopServer() {
        jedis.close();
        server.close();
    }
}
