package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/** A script running past busy-reply-threshold: BUSY for others, SCRIPT KILL, UNKILLABLE, and MULTI around it. */
class ScriptBusyTest extends SharedServerTestSupport {
    private static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";

    private Jedis other;

    @BeforeEach
    void lowThreshold() {
        jedis.configSet("busy-reply-threshold", "50");
        other = server.jedis();
    }

    @AfterEach
    void restore() throws InterruptedException {
        other.close();
        // A test that failed may leave a script running: stop it before the next test.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                jedis.scriptKill();
            } catch (RuntimeException e) {
                if (e.getMessage().startsWith("NOTBUSY")) {
                    break;
                }
                server.advanceMillis(1_000_000);
            }
            Thread.sleep(20);
        }
        jedis.configSet("busy-reply-threshold", "5000");
    }

    /** Runs {@code body} on a connection of its own; its reply or error text. */
    private CompletableFuture<Object> runAside(String body) {
        return CompletableFuture.supplyAsync(() -> {
            try (Jedis c = server.jedis()) {
                return c.eval(body);
            } catch (RuntimeException e) {
                return e.getMessage();
            }
        });
    }

    private void awaitBusy() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                jedis.ping();
            } catch (RuntimeException e) {
                assertThat(e).hasMessage(BUSY);
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the server never answered BUSY");
    }

    @Test
    void aLongScriptMakesOthersBusyUntilScriptKillStopsIt() throws Exception {
        jedis.set("x", "1");
        CompletableFuture<Object> looping = runAside("while true do end");
        awaitBusy();
        assertThatThrownBy(() -> other.get("x")).hasMessage(BUSY);
        assertThat(other.scriptKill()).isEqualTo("OK");
        assertThat(looping.get(10, TimeUnit.SECONDS)).asString()
                .startsWith("ERR Script killed by user with SCRIPT KILL... script: ").endsWith("on @user_script:1.");
        assertThat(other.get("x")).isEqualTo("1");
        assertThatThrownBy(() -> other.scriptKill()).hasMessage("NOTBUSY No scripts in execution right now.");
    }

    @Test
    void pcallCannotSwallowTheKill() throws Exception {
        CompletableFuture<Object> looping = runAside("while true do pcall(function() while true do end end) end");
        awaitBusy();
        assertThat(other.scriptKill()).isEqualTo("OK");
        assertThat(looping.get(10, TimeUnit.SECONDS)).asString().startsWith("ERR Script killed by user with SCRIPT KILL...");
    }

    @Test
    void aScriptThatWroteCannotBeKilled() throws Exception {
        // Writes, then spins until TIME (the test's clock) has moved 100 s on.
        CompletableFuture<Object> writer = runAside("redis.call('set', 'w', 'written') "
                + "local start = tonumber(redis.call('time')[1]) "
                + "repeat until tonumber(redis.call('time')[1]) - start >= 100 return 'done'");
        awaitBusy();
        assertThatThrownBy(() -> other.scriptKill()).hasMessage("UNKILLABLE Sorry the script already executed write commands "
                + "against the dataset. You can either wait the script termination or kill the server in a hard way using "
                + "the SHUTDOWN NOSAVE command.");
        server.advanceMillis(200_000);
        assertThat(writer.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(other.get("w")).isEqualTo("written");
    }

    @Test
    void commandsRefusedWhileBusyDiscardTheTransaction() throws Exception {
        jedis.set("xx", "1");
        Transaction t = other.multi();
        t.incr("xx");
        CompletableFuture<Object> looping = runAside("while true do end");
        awaitBusy();
        assertThatThrownBy(t::exec).hasMessage("EXECABORT Transaction discarded because of: " + BUSY);
        assertThat(other.scriptKill()).isEqualTo("OK");
        looping.get(10, TimeUnit.SECONDS);
        assertThat(other.get("xx")).isEqualTo("1");
        assertThat(other.echo("not in multi any more")).isEqualTo("not in multi any more");
    }

    @Test
    void aKilledScriptInsideExecLeavesTheRestOfTheQueueToCommit() throws Exception {
        Transaction t = other.multi();
        t.set("before", "1");
        t.eval("while true do end");
        t.set("after", "2");
        CompletableFuture<List<Object>> exec = CompletableFuture.supplyAsync(t::exec);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                jedis.scriptKill();
                break;
            } catch (RuntimeException e) {
                Thread.sleep(10);
            }
        }
        List<Object> replies = exec.get(10, TimeUnit.SECONDS);
        assertThat(replies.get(0)).isEqualTo("OK");
        assertThat(replies.get(1)).isInstanceOfSatisfying(JedisDataException.class, e ->
                assertThat(e).hasMessageStartingWith("ERR Script killed by user with SCRIPT KILL..."));
        assertThat(replies.get(2)).isEqualTo("OK");
        assertThat(jedis.mget("before", "after")).containsExactly("1", "2");
    }
}
