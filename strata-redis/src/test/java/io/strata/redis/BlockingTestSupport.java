package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Helpers of the blocking-command tests, on a server shared by the class: block a client on a
 * connection of its own, and wait until the server shows it blocked.
 */
abstract class BlockingTestSupport extends SharedServerTestSupport {
    /** Runs {@code call} on a new connection of its own, in the background. */
    protected static <T> CompletableFuture<T> onOwnConnection(Function<Jedis, T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try (Jedis j = server.jedis()) {
                return call.apply(j);
            }
        });
    }

    protected static long blockedClients() {
        return jedis.clientList().lines().filter(l -> l.contains(" flags=b ")).count();
    }

    /** Waits until {@code n} clients are blocked (as CLIENT LIST shows them). */
    protected static void awaitBlocked(long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (blockedClients() != n) {
            assertThat(System.nanoTime()).as("%d clients blocked in time", n).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    protected static Object raw(Jedis j, String command, String... args) {
        ProtocolCommand cmd = () -> SafeEncoder.encode(command);
        return j.sendCommand(cmd, args);
    }
}
