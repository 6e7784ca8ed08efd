package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.BLOCKING;

import com.apple.foundationdb.Transaction;
import io.strata.redis.blocking.BlockTimeout;
import io.strata.redis.blocking.BlockingAttempt;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * BLPOP, BRPOP, BLMOVE, BRPOPLPUSH and BLMPOP. Each is its non-blocking form written as a
 * {@link BlockingAttempt}: run on its own, the command waits through
 * {@code BlockedClients} (FoundationDB watches on its keys) when none of its keys has an
 * element; queued in MULTI it runs once in EXEC's transaction and answers nil instead of
 * waiting, as Redis does. Timeouts are seconds as a float, 0 for none; a timed-out command
 * answers a null array (RESP3 null), BLMOVE included, as Redis does.
 */
final class BlockingListCommands {
    private BlockingListCommands() {
    }

    static void register(CommandTable t) {
        t.add("blpop", -3, "write noscript blocking", 1, -2, 1, "list", BLOCKING, (inv, tr) -> bpop(inv, tr, true));
        t.add("brpop", -3, "write noscript blocking", 1, -2, 1, "list", BLOCKING, (inv, tr) -> bpop(inv, tr, false));
        t.add("blmove", 6, "write denyoom noscript blocking", 1, 2, 1, "list", BLOCKING, (inv, tr) ->
                blmove(inv, tr, ListCommands.side(inv, 3), ListCommands.side(inv, 4), 5));
        t.add("brpoplpush", 4, "write denyoom noscript blocking", 1, 2, 1, "list", BLOCKING, (inv, tr) ->
                blmove(inv, tr, false, true, 3));
        t.add("blmpop", -5, "write blocking movable_keys", 0, 0, 0, "list", BLOCKING, BlockingListCommands::blmpop);
    }

    /**
     * The list at {@code key} for popping, or null if absent. Of another type it is WRONGTYPE
     * when {@code strict} (a command's first try), else passed over as absent (a blocked
     * client's retry: Redis leaves it blocked). A list {@code passOver} accepts counts as
     * absent too (clients waiting on it come first).
     */
    static CompletableFuture<ListValue> openSource(Transaction tr, KeyStore keys, int db, byte[] key, long now, boolean strict,
                                                   Predicate<byte[]> passOver) {
        return keys.getForWrite(tr, db, key, now).thenApply(m -> {
            if (m == null) {
                return null;
            }
            if (m.type() != RedisType.LIST) {
                if (strict) {
                    throw RedisException.wrongType();
                }
                return null;
            }
            return passOver.test(key) ? null : ListValue.of(tr, keys, db, key, m);
        });
    }

    /** BLPOP/BRPOP key [key ...] timeout: [key, element] from the first non-empty list. */
    private static CompletableFuture<Reply> bpop(Invocation inv, Transaction tr, boolean left) {
        long timeout = BlockTimeout.parseSeconds(inv.arg(inv.argc() - 1));
        List<byte[]> keys = new ArrayList<>();
        for (int i = 1; i < inv.argc() - 1; i++) {
            keys.add(inv.arg(i));
        }
        BlockingAttempt attempt = (t, first, waitedOn) -> popOne(inv, t, keys, 0, left, first, waitedOn);
        return run(inv, tr, keys, timeout, attempt, Reply.NULL_ARRAY);
    }

    private static CompletableFuture<Reply> popOne(Invocation inv, Transaction tr, List<byte[]> keys, int from, boolean left,
                                                   boolean strict, Predicate<byte[]> passOver) {
        return KeysInTurn.firstOf(keys.size() - from, i -> {
            byte[] key = keys.get(from + i);
            return openSource(tr, inv.server().keys(), inv.db(), key, inv.now(), strict, passOver).thenCompose(list -> {
                if (list == null) {
                    return CompletableFuture.completedFuture(null);
                }
                return list.pop(left, 1).thenApply(values -> {
                    list.save(left ? "lpop" : "rpop");
                    return Reply.array(Reply.bulk(key), Reply.bulk(values.get(0)));
                });
            });
        });
    }

    /** BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout, and BRPOPLPUSH source destination timeout. */
    private static CompletableFuture<Reply> blmove(Invocation inv, Transaction tr, boolean fromLeft, boolean toLeft, int timeoutAt) {
        long timeout = BlockTimeout.parseSeconds(inv.arg(timeoutAt));
        byte[] src = inv.arg(1);
        byte[] dst = inv.arg(2);
        BlockingAttempt attempt = (t, first, waitedOn) -> ListCommands.lmove(inv, t, src, dst, fromLeft, toLeft, first, waitedOn)
                .thenApply(v -> v == null ? null : Reply.bulk(v));
        return run(inv, tr, List.of(src), timeout, attempt, Reply.NULL_BULK);
    }

    /** BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]. */
    private static CompletableFuture<Reply> blmpop(Invocation inv, Transaction tr) {
        ListCommands.MpopArgs a = ListCommands.MpopArgs.parse(inv, 2);
        long timeout = BlockTimeout.parseSeconds(inv.arg(1));
        BlockingAttempt attempt = (t, first, waitedOn) -> ListCommands.mpop(inv, t, a, 0, first, waitedOn);
        return run(inv, tr, a.keys(), timeout, attempt, Reply.NULL_ARRAY);
    }

    /**
     * Inside EXEC ({@code tr} given) one try, and {@code nilInTransaction} if it finds nothing;
     * on its own, the try and then the wait.
     */
    private static CompletableFuture<Reply> run(Invocation inv, Transaction tr, List<byte[]> keys, long timeoutMillis,
                                                BlockingAttempt attempt, Reply nilInTransaction) {
        if (tr != null) {
            return attempt.attempt(tr, true, BlockingAttempt.NOBODY).thenApply(r -> r == null ? nilInTransaction : r);
        }
        return inv.server().blocked().block(inv.session(), inv.db(), keys, timeoutMillis, Reply.NULL_ARRAY, inv.timing(attempt));
    }
}
