package io.strata.redis;

import com.apple.foundationdb.Database;
import io.strata.MvccWindow;
import io.strata.Strata;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.server.RedisServer;
import redis.clients.jedis.Jedis;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A server on a fresh in-memory engine, listening on a free port of 127.0.0.1, with a clock
 * that tests can move (expiry). Close it after the test.
 */
public final class RunningServer implements AutoCloseable {
    public final Database database;
    public final RedisServer server;
    /** The server's clock in Unix milliseconds; starts at the real time, tests may advance it. */
    public final AtomicLong clock = new AtomicLong(System.currentTimeMillis());

    private RunningServer(RedisConfig config) throws InterruptedException {
        database = Strata.builder().mvccWindow(MvccWindow.OPEN_TRANSACTIONS).inMemory(); // as `strata serve redis`
        try {
            server = RedisServer.start(database, config.withPort(0).withStorage(config.storage() != null ? config.storage() : "memory"), clock::get);
        } catch (RuntimeException | InterruptedException e) {
            // A server that refused to start (a bad parameter) must not leak its engine.
            database.close();
            throw e;
        }
    }

    public static RunningServer start() throws InterruptedException {
        return new RunningServer(RedisConfig.defaults());
    }

    public static RunningServer start(RedisConfig config) throws InterruptedException {
        return new RunningServer(config);
    }

    public int port() {
        return server.port();
    }

    /** A new Jedis connection to the server (RESP2). */
    public Jedis jedis() {
        return new Jedis("127.0.0.1", port(), 10_000);
    }

    public void advanceMillis(long ms) {
        clock.addAndGet(ms);
    }

    /** Bytes of every value the database holds outside its system keys: what large values leave behind. */
    public long storedBytes() {
        return database.run(tr -> {
            long total = 0;
            for (var kv : tr.getRange(new byte[] {0}, new byte[] {(byte) 0xFF}).asList().join()) {
                total += kv.getValue().length;
            }
            return total;
        });
    }

    @Override
    public void close() {
        server.close();
        database.close();
    }
}
