package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.BLOCKING;

import com.apple.foundationdb.Transaction;
import io.strata.redis.blocking.BlockTimeout;
import io.strata.redis.blocking.BlockingAttempt;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * BZPOPMIN, BZPOPMAX and BZMPOP: ZPOPMIN/ZPOPMAX/ZMPOP ({@link ZPopCommands#pop}) written as a
 * {@link BlockingAttempt}, waiting through {@code BlockedClients} like the blocking list
 * commands. BZPOPMIN/BZPOPMAX answer [key, member, score], BZMPOP answers as ZMPOP; a timeout
 * (or, inside MULTI, nothing to pop) answers a null array, as Redis 7.0 does.
 */
final class BlockingSortedSetCommands {
    private BlockingSortedSetCommands() {
    }

    static void register(CommandTable t) {
        t.add("bzpopmin", -3, "write noscript fast blocking", 1, -2, 1, "sortedset", BLOCKING, (inv, tr) -> bzpop(inv, tr, false));
        t.add("bzpopmax", -3, "write noscript fast blocking", 1, -2, 1, "sortedset", BLOCKING, (inv, tr) -> bzpop(inv, tr, true));
        t.add("bzmpop", -5, "write blocking movable_keys", 0, 0, 0, "sortedset", BLOCKING, BlockingSortedSetCommands::bzmpop);
    }

    /** BZPOPMIN|BZPOPMAX key [key ...] timeout. */
    private static CompletableFuture<Reply> bzpop(Invocation inv, Transaction tr, boolean max) {
        long timeout = BlockTimeout.parseSeconds(inv.arg(inv.argc() - 1));
        List<byte[]> keys = new ArrayList<>();
        for (int i = 1; i < inv.argc() - 1; i++) {
            keys.add(inv.arg(i));
        }
        BlockingAttempt attempt = (t, first, waitedOn) -> popFirst(inv, t, keys, 0, max, 1, first, waitedOn)
                .thenApply(found -> {
                    if (found == null) {
                        return null;
                    }
                    byte[] e = found.popped().get(0);
                    return Reply.array(Reply.bulk(found.key()), Reply.bulk(ZSetObject.memberOf(e)),
                            Reply.doubleValue(ZSetObject.scoreOf(e)));
                });
        return run(inv, tr, keys, timeout, attempt);
    }

    /** BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]: the arguments first, then the timeout, as Redis. */
    private static CompletableFuture<Reply> bzmpop(Invocation inv, Transaction tr) {
        ZPopCommands.MpopArgs a = ZPopCommands.MpopArgs.parse(inv, 2);
        long timeout = BlockTimeout.parseSeconds(inv.arg(1));
        BlockingAttempt attempt = (t, first, waitedOn) -> popFirst(inv, t, a.keys(), 0, a.max(), a.count(), first, waitedOn)
                .thenApply(found -> found == null ? null : ZPopCommands.mpopReply(found.key(), found.popped()));
        return run(inv, tr, a.keys(), timeout, attempt);
    }

    /** What a try popped, and from which key. */
    private record Popped(byte[] key, List<byte[]> popped) {
    }

    /**
     * Pops from the first key, from {@code from} on, that holds a sorted set it may take from;
     * null if none. A key of another type is WRONGTYPE when {@code strict} (the first try),
     * else passed over; a key in {@code passOver} is type-checked but not taken from.
     */
    private static CompletableFuture<Popped> popFirst(Invocation inv, Transaction tr, List<byte[]> keys, int from, boolean max,
                                                      long count, boolean strict, Predicate<byte[]> passOver) {
        return KeysInTurn.firstOf(keys.size() - from, i -> {
            byte[] key = keys.get(from + i);
            return inv.server().keys().getForWrite(tr, inv.db(), key, inv.now()).thenCompose(m -> {
                boolean usable = m != null && m.type() == RedisType.ZSET && !passOver.test(key);
                if (m != null && m.type() != RedisType.ZSET && strict) {
                    throw RedisException.wrongType();
                }
                if (!usable) {
                    return CompletableFuture.completedFuture(null);
                }
                return ZPopCommands.pop(inv, tr, key, max, count).thenApply(popped -> popped == null || popped.isEmpty()
                        ? null : new Popped(key, popped));
            });
        });
    }

    /** Inside EXEC ({@code tr} given) one try, nil if it finds nothing; on its own, the try and then the wait. */
    private static CompletableFuture<Reply> run(Invocation inv, Transaction tr, List<byte[]> keys, long timeoutMillis,
                                                BlockingAttempt attempt) {
        if (tr != null) {
            return attempt.attempt(tr, true, BlockingAttempt.NOBODY).thenApply(r -> r == null ? Reply.NULL_ARRAY : r);
        }
        return inv.server().blocked().block(inv.session(), inv.db(), keys, timeoutMillis, Reply.NULL_ARRAY, inv.timing(attempt));
    }
}
