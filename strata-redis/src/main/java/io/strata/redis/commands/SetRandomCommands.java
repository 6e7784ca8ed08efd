package io.strata.redis.commands;

import static io.strata.redis.commands.SetValues.ids;
import static io.strata.redis.commands.SetValues.keys;

import com.apple.foundationdb.Transaction;
import io.strata.layers.set.RoaringSet;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * SRANDMEMBER and SPOP. A pick reads the set's counter, draws ranks uniformly from
 * {@code [0, size)} ({@link RandomRanks}), finds the ids at those ranks with
 * {@link RoaringSet#select} (one range read of the containers, decoding only those that hold
 * a pick: cheap for the dense ids the interner gives, see KeyStore.interner) and looks up
 * only the picked members.
 *
 * <p>Redis's rules: without a count, one member (nil if the key is missing). SRANDMEMBER
 * with a count {@code n >= 0} gives {@code min(n, size)} distinct members; {@code n < 0}
 * gives {@code |n|} members drawn with repetition; an array in RESP3 too. SPOP with a count
 * removes and gives {@code min(n, size)} distinct members as a set (RESP3 set); popping the
 * whole set deletes the key. Counts are checked before the key is read, as in Redis.
 *
 * <p>Randomness: {@link ThreadLocalRandom}, drawn inside the transaction; a retried
 * transaction draws again, which only changes which members a retried pop takes.
 */
final class SetRandomCommands {
    /**
     * The most members a negative SRANDMEMBER count may ask for: Redis 7.0 would try to send
     * any number (until the client is dropped or memory runs out); this server refuses a
     * reply that size could not hold.
     */
    static final long MAX_REPEATED = 10_000_000;

    private SetRandomCommands() {
    }

    static CompletableFuture<Reply> srandmember(Invocation inv, Transaction tr) {
        if (inv.argc() > 3) {
            throw RedisException.syntax();
        }
        if (inv.argc() == 2) {
            return SetValues.get(inv, tr, inv.arg(1)).thenCompose(meta -> meta == null
                    ? CompletableFuture.completedFuture(Reply.NULL_BULK)
                    : pick(inv, tr, meta, 1, false).thenApply(members -> Reply.bulk(members.get(0))));
        }
        long count = inv.longArg(2);
        if (count == Long.MIN_VALUE) {
            throw new RedisException("ERR value is out of range, value must between " + -Long.MAX_VALUE + " and " + Long.MAX_VALUE);
        }
        boolean repeat = count < 0;
        long wanted = Math.abs(count);
        if (repeat && wanted > MAX_REPEATED) {
            throw new RedisException("ERR count is out of range: a negative count may ask for at most " + MAX_REPEATED + " members");
        }
        return SetValues.get(inv, tr, inv.arg(1)).thenCompose(meta -> meta == null || wanted == 0
                ? CompletableFuture.completedFuture(Reply.EMPTY_ARRAY)
                : pick(inv, tr, meta, wanted, repeat).thenApply(members -> Reply.bulks(members)));
    }

    static CompletableFuture<Reply> spop(Invocation inv, Transaction tr) {
        if (inv.argc() > 3) {
            throw RedisException.syntax();
        }
        byte[] key = inv.arg(1);
        if (inv.argc() == 2) {
            return SetValues.getForWrite(inv, tr, key).thenCompose(meta -> meta == null
                    ? CompletableFuture.completedFuture(Reply.NULL_BULK)
                    : pop(inv, tr, key, meta, 1).thenApply(members -> Reply.bulk(members.get(0))));
        }
        String notPositive = "ERR value is out of range, must be positive"; // for a non-number too, as in Redis
        long count = Numbers.parseLong(inv.arg(2), notPositive);
        if (count < 0) {
            throw new RedisException(notPositive);
        }
        return SetValues.getForWrite(inv, tr, key).thenCompose(meta -> meta == null || count == 0
                ? CompletableFuture.completedFuture(Reply.set(List.of()))
                : pop(inv, tr, key, meta, count).thenApply(SetValues::setOf));
    }

    /** Removes {@code count} random members (all if fewer) and returns them; deletes the key when emptied. */
    private static CompletableFuture<List<byte[]>> pop(Invocation inv, Transaction tr, byte[] key, KeyMeta meta, long count) {
        RoaringSet set = ids(inv, meta);
        return set.cardinality(tr).thenCompose(size -> {
            if (count >= size) {
                return set.toBitmap(tr).thenCompose(bitmap -> {
                    keys(inv).delete(tr, inv.db(), key, meta);
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.SET, "spop", key);
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", key);
                    return SetValues.strings(inv, tr, bitmap);
                });
            }
            long[] ranks = RandomRanks.distinct(ThreadLocalRandom.current(), size, Math.toIntExact(count));
            return set.select(tr, ranks).thenCompose(picked -> set.removeAll(tr, picked).thenCompose(removed -> {
                keys(inv).touch(tr, inv.db(), key);
                inv.keyspaceEvent(tr, NotifyKeyspaceEvents.SET, "spop", key);
                return SetValues.strings(inv, tr, picked);
            }));
        });
    }

    /** {@code count} random members: distinct (at most the whole set) or with repetition. */
    private static CompletableFuture<List<byte[]>> pick(Invocation inv, Transaction tr, KeyMeta meta, long count,
                                                        boolean repeat) {
        RoaringSet set = ids(inv, meta);
        return set.cardinality(tr).thenCompose(size -> {
            if (!repeat && count >= size) {
                return set.toBitmap(tr).thenCompose(bitmap -> SetValues.strings(inv, tr, bitmap));
            }
            ThreadLocalRandom random = ThreadLocalRandom.current();
            long[] ranks = repeat
                    ? RandomRanks.withRepetition(random, size, Math.toIntExact(count))
                    : RandomRanks.distinct(random, size, Math.toIntExact(count));
            return set.select(tr, ranks).thenCompose(picked -> SetValues.strings(inv, tr, picked));
        });
    }
}
