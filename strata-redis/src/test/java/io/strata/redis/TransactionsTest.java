package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

import java.util.List;

/** MULTI/EXEC/WATCH over TCP: EXEC is nil exactly when a watched key changed or expired. */
class TransactionsTest {
    private RunningServer server;
    private Jedis a;
    private Jedis b;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start();
        a = server.jedis();
        b = server.jedis();
    }

    @AfterEach
    void stop() {
        a.close();
        b.close();
        server.close();
    }

    @Test
    void execRunsTheQueueAndReportsEachReply() {
        Transaction t = a.multi();
        t.set("k", "v");
        t.incr("k");
        t.get("k");
        var replies = t.exec();
        assertThat(replies).hasSize(3);
        assertThat(replies.get(0)).isEqualTo("OK");
        assertThat(replies.get(1)).isInstanceOf(JedisDataException.class);
        assertThat(replies.get(2)).isEqualTo("v");
    }

    /**
     * A refused EXEC discards the transaction and its WATCHes, with or without MULTI, and says
     * why after EXECABORT, as Redis's execCommandAbort does (Jedis's own reset test relies on it).
     */
    @Test
    void aRefusedExecDiscardsTheTransactionWithExecabort() throws Exception {
        try (RespSocket c = new RespSocket(server.port())) {
            c.command("EXEC", "extra");
            assertThat(c.reply()).isEqualTo("-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n");
            c.command("MULTI").command("SET", "k", "1").command("EXEC", "extra").command("EXEC");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
            assertThat(c.reply()).isEqualTo("+QUEUED\r\n");
            assertThat(c.reply()).startsWith("-EXECABORT Transaction discarded because of: wrong number");
            assertThat(c.reply()).isEqualTo("-ERR EXEC without MULTI\r\n");
            c.command("WATCH", "k").command("EXEC", "extra");
            c.reply();
            c.reply();
            b.set("k", "changed"); // the refused EXEC unwatched k: this change does not abort the next EXEC
            c.command("MULTI").command("SET", "k", "mine").command("EXEC");
            c.reply();
            c.reply();
            assertThat(c.reply()).isEqualTo("*1\r\n+OK\r\n");
        }
        b.configSet("requirepass", "pw");
        try (RespSocket c = new RespSocket(server.port())) {
            c.command("EXEC");
            assertThat(c.reply()).isEqualTo("-EXECABORT Transaction discarded because of: NOAUTH Authentication required.\r\n");
        } finally {
            b.auth("pw");
            b.configSet("requirepass", "");
        }
    }

    @Test
    void aWatchedKeyChangedByAnotherClientAbortsExec() {
        a.watch("k");
        b.set("k", "changed");
        Transaction t = a.multi();
        t.set("k", "mine");
        assertThat(t.exec()).isNull();
        assertThat(b.get("k")).isEqualTo("changed");
    }

    @Test
    void aWatchedKeyThatCameAndWentStillAbortsExec() {
        a.watch("k");
        b.set("k", "x");
        b.del("k");
        Transaction t = a.multi();
        t.set("other", "1");
        assertThat(t.exec()).isNull();
        assertThat(b.exists("other")).isFalse();
    }

    /**
     * A flush removes what another client created after the WATCH: the key ends absent, as it
     * began, but it changed (Redis's SET touched it), so EXEC fails. Found by the differential
     * fuzzer: the flush used to clear the stamps with the keys.
     */
    @Test
    void aWatchedKeyCreatedAndThenFlushedStillAbortsExec() {
        for (String flush : new String[] {"FLUSHDB", "FLUSHALL"}) {
            a.watch("k");
            b.set("k", "v");
            b.sendCommand(redis.clients.jedis.Protocol.Command.valueOf(flush));
            Transaction t = a.multi();
            t.get("k");
            assertThat(t.exec()).as(flush).isNull();
        }
    }

    /** A flush is no change to a key it did not hold, nor to one that had expired by the WATCH. */
    @Test
    void aFlushDoesNotAbortExecOverKeysItDidNotHold() {
        b.set("gone", "v");
        b.del("gone");
        a.watch("gone", "never");
        b.flushDB();
        Transaction t = a.multi();
        t.get("gone");
        assertThat(t.exec()).containsExactly((Object) null);
        watchAKeyThatAlreadyExpired();
        b.flushAll();
        t = a.multi();
        t.get("k");
        assertThat(t.exec()).containsExactly((Object) null);
    }

    /** A flush removing a key live at WATCH aborts EXEC, and so does the key created again after it. */
    @Test
    void aFlushOfAWatchedLiveKeyAbortsExec() {
        b.set("k", "v");
        a.watch("k");
        b.flushDB();
        b.set("k", "v");
        Transaction t = a.multi();
        t.get("k");
        assertThat(t.exec()).isNull();
    }

    /**
     * SWAPDB changes a key present in either database, in both; a key absent from both is no
     * change, whatever stamps the two databases held for it (they stay with their database).
     */
    @Test
    void swapdbChangesWatchedKeysPresentInEitherDatabaseOnly() {
        b.select(1);
        b.set("gone", "v");
        b.del("gone");
        a.watch("gone");
        b.swapDB(0, 1);
        Transaction t = a.multi();
        t.get("gone");
        assertThat(t.exec()).as("a key absent from both databases").containsExactly((Object) null);
        b.set("there", "v");
        a.watch("there");
        b.swapDB(0, 1);
        t = a.multi();
        t.get("there");
        assertThat(t.exec()).as("a key moved in by the swap").isNull();
    }

    @Test
    void unrelatedWritesDoNotAbortExec() {
        a.set("k", "1");
        a.watch("k");
        b.set("unrelated", "x");
        Transaction t = a.multi();
        t.incr("k");
        assertThat(t.exec()).containsExactly(2L);
    }

    @Test
    void aWatchedKeyThatExpiresAbortsExec() {
        a.set("k", "v");
        a.pexpire("k", 100);
        a.watch("k");
        server.advanceMillis(200);
        Transaction t = a.multi();
        t.set("x", "1");
        assertThat(t.exec()).isNull();
    }

    /**
     * A key already expired when WATCHed ("stale") that a write then deletes lazily has not
     * changed: Redis's touchWatchedKey clears its "expired at WATCH" flag instead of failing
     * the EXEC (its test "Delete WATCHed stale keys should not fail EXEC"). Found by
     * scripts/redis-diff (GETDEL and LPOP of the stale key; DEL likewise): EXEC answered nil here.
     */
    @Test
    void aWatchedStaleKeyThatAWriteDeletesDoesNotAbortExec() {
        watchAKeyThatAlreadyExpired();
        assertThat(b.del("k")).isZero();
        assertThat(execSettingX()).containsExactly("OK");
    }

    /**
     * The same with an older WATCH of another client in force, which holds the floor under
     * which deleted keys' stamps may be cleared below the stale key's last change: the
     * deletion leaves the stamp as it was, so EXEC still sees no change.
     */
    @Test
    void aWatchedStaleKeyThatAWriteDeletesDoesNotAbortExecWhileAnOlderWatchIsInForce() {
        try (Jedis c = server.jedis()) {
            c.watch("other");
            watchAKeyThatAlreadyExpired();
            assertThat(b.del("k")).isZero();
            assertThat(execSettingX()).containsExactly("OK");
            c.unwatch();
        }
    }

    /** The same stale key, written again by another client: a change, EXEC fails as in Redis. */
    @Test
    void aWatchedStaleKeyWrittenAgainAbortsExec() {
        watchAKeyThatAlreadyExpired();
        b.set("k", "new");
        assertThat(execSettingX()).isNull();
    }

    /**
     * A key absent at WATCH, created (with an expiry) after it, expired and deleted by a write:
     * its creation was a change, which the deletion of its expired value does not undo.
     */
    @Test
    void aKeyCreatedAfterWatchStillAbortsExecOnceItExpiredAndWasDeleted() {
        server.server.expiryCycle().setActive(false);
        a.watch("k");
        b.set("k", "v", redis.clients.jedis.params.SetParams.setParams().px(100));
        server.advanceMillis(200);
        assertThat(b.del("k")).isZero();
        assertThat(execSettingX()).isNull();
    }

    /** With active expiry off, sets {@code k} to expire in 100 ms, lets 200 pass, then {@code a} WATCHes it. */
    private void watchAKeyThatAlreadyExpired() {
        server.server.expiryCycle().setActive(false);
        a.set("k", "v", redis.clients.jedis.params.SetParams.setParams().px(100));
        server.advanceMillis(200);
        a.watch("k");
    }

    /** {@code a}'s MULTI, SET x 1, EXEC: the replies, or null when EXEC failed. */
    private List<Object> execSettingX() {
        Transaction t = a.multi();
        t.set("x", "1");
        return t.exec();
    }

    @Test
    void anUnknownCommandInMultiAbortsTheTransaction() {
        a.sendCommand(redis.clients.jedis.Protocol.Command.MULTI);
        try {
            a.sendCommand(() -> "NOSUCHCOMMAND".getBytes());
        } catch (JedisDataException expected) {
            assertThat(expected.getMessage()).startsWith("ERR unknown command 'NOSUCHCOMMAND'");
        }
        try {
            a.sendCommand(redis.clients.jedis.Protocol.Command.EXEC);
        } catch (JedisDataException e) {
            assertThat(e.getMessage()).isEqualTo("EXECABORT Transaction discarded because of previous errors.");
        }
    }
}
