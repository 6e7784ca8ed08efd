package io.strata.redis.commands;

import static io.strata.redis.commands.SetValues.ids;
import static io.strata.redis.commands.SetValues.keys;

import com.apple.foundationdb.Transaction;
import io.strata.layers.set.RoaringSet;
import io.strata.layers.set.SetAlgebra;
import io.strata.layers.set.SetOperation;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SINTER, SUNION, SDIFF, SINTERCARD and the STORE forms, as bitmap algebra on the sets' ids
 * ({@link SetAlgebra}): the sets' roaring containers are combined container by container,
 * and only the result's ids are turned back into members. The STORE forms write the result's
 * containers straight into the destination without visiting members.
 *
 * <p>Redis's rules kept: every source key is type-checked (a WRONGTYPE anywhere is the
 * answer, even after a missing key); a missing key is an empty set; SDIFF of a missing first
 * key is empty. A STORE replaces the destination whatever its type, drops its TTL, and
 * deletes it when the result is empty. The destination may be a source: everything is read
 * before anything is written.
 *
 * <p>Limits: a stored result must fit one transaction (SetAlgebra refuses more than about
 * 9 MB of containers with FoundationDB's error 2101, before writing); all reads of one
 * command must finish within FoundationDB's 5 seconds.
 */
final class SetAlgebraCommands {
    private SetAlgebraCommands() {
    }

    static CompletableFuture<Reply> sinter(Invocation inv, Transaction tr) {
        return sources(inv, tr, 1, inv.argc()).thenCompose(metas -> {
            if (metas.contains(null)) {
                return CompletableFuture.completedFuture(Reply.set(List.of()));
            }
            return SetAlgebra.compute(tr, SetOperation.AND, sets(inv, metas))
                    .thenCompose(bitmap -> SetValues.setReply(inv, tr, bitmap));
        });
    }

    static CompletableFuture<Reply> sunion(Invocation inv, Transaction tr) {
        return sources(inv, tr, 1, inv.argc()).thenCompose(metas -> {
            List<RoaringSet> present = sets(inv, withoutMissing(metas));
            if (present.isEmpty()) {
                return CompletableFuture.completedFuture(Reply.set(List.of()));
            }
            return SetAlgebra.compute(tr, SetOperation.OR, present)
                    .thenCompose(bitmap -> SetValues.setReply(inv, tr, bitmap));
        });
    }

    static CompletableFuture<Reply> sdiff(Invocation inv, Transaction tr) {
        return sources(inv, tr, 1, inv.argc()).thenCompose(metas -> {
            if (metas.get(0) == null) {
                return CompletableFuture.completedFuture(Reply.set(List.of()));
            }
            return SetAlgebra.compute(tr, SetOperation.AND_NOT, sets(inv, withoutMissing(metas)))
                    .thenCompose(bitmap -> SetValues.setReply(inv, tr, bitmap));
        });
    }

    /** SINTERCARD numkeys key [key ...] [LIMIT limit]: the intersection's size, counting no further than the limit. */
    static CompletableFuture<Reply> sintercard(Invocation inv, Transaction tr) {
        long numkeys = Numbers.parseLong(inv.arg(1), "ERR numkeys should be greater than 0");
        if (numkeys < 1) {
            throw new RedisException("ERR numkeys should be greater than 0");
        }
        if (numkeys > inv.argc() - 2) {
            throw new RedisException("ERR Number of keys can't be greater than number of args");
        }
        long limit = 0;
        for (int i = 2 + (int) numkeys; i < inv.argc(); i++) {
            if (inv.option(i).equals("LIMIT") && i + 1 < inv.argc()) {
                limit = Numbers.parseLong(inv.arg(++i), "ERR LIMIT can't be negative");
                if (limit < 0) {
                    throw new RedisException("ERR LIMIT can't be negative");
                }
            } else {
                throw RedisException.syntax();
            }
        }
        long max = limit;
        return sources(inv, tr, 2, 2 + (int) numkeys).thenCompose(metas -> {
            if (metas.contains(null)) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            return SetAlgebra.andCardinality(tr, sets(inv, metas), max).thenApply(Reply::integer);
        });
    }

    static CompletableFuture<Reply> sinterstore(Invocation inv, Transaction tr) {
        return store(inv, tr, SetOperation.AND);
    }

    static CompletableFuture<Reply> sunionstore(Invocation inv, Transaction tr) {
        return store(inv, tr, SetOperation.OR);
    }

    static CompletableFuture<Reply> sdiffstore(Invocation inv, Transaction tr) {
        return store(inv, tr, SetOperation.AND_NOT);
    }

    /**
     * SINTERSTORE / SUNIONSTORE / SDIFFSTORE destination key [key ...]: the result's size.
     * The sources are read and checked first, then the destination; a destination that is
     * a set keeps its object and has its containers replaced, anything else is replaced by a
     * new set (KeyStore.put clears the old object).
     */
    private static CompletableFuture<Reply> store(Invocation inv, Transaction tr, SetOperation op) {
        byte[] destination = inv.arg(1);
        KeyStore keys = keys(inv);
        int db = inv.db();
        return sources(inv, tr, 2, inv.argc()).thenCompose(metas -> {
            List<KeyMeta> inputs = switch (op) {
                case AND -> metas.contains(null) ? List.of() : metas;
                case AND_NOT -> metas.get(0) == null ? List.of() : withoutMissing(metas);
                default -> withoutMissing(metas);
            };
            return keys.getForWrite(tr, db, destination, inv.now()).thenCompose(old -> {
                if (inputs.isEmpty()) {
                    return CompletableFuture.completedFuture(replaceWithEmpty(inv, tr, destination, old));
                }
                boolean reuse = old != null && old.type() == RedisType.SET;
                CompletableFuture<KeyMeta> target = reuse
                        ? CompletableFuture.completedFuture(old.withExpiry(0))
                        : keys.newObjectId(tr).thenApply(SetValues::newMeta);
                return target.thenCompose(meta -> SetAlgebra.store(tr, op, ids(inv, meta), sets(inv, inputs))
                        .thenApply(size -> {
                            if (size == 0) {
                                // A new object was only cleared, never written: nothing to undo.
                                return replaceWithEmpty(inv, tr, destination, old);
                            }
                            keys.put(tr, db, destination, old, meta);
                            // The event is the command's name: sinterstore, sunionstore or sdiffstore.
                            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.SET, inv.spec().name(), destination);
                            return Reply.integer(size);
                        }));
            });
        });
    }

    /** An empty result: the destination is deleted (if it existed), as Redis does. */
    private static Reply replaceWithEmpty(Invocation inv, Transaction tr, byte[] destination, KeyMeta old) {
        if (old != null) {
            keys(inv).delete(tr, inv.db(), destination, old);
            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", destination);
        }
        return Reply.ZERO;
    }

    /**
     * The metadata of arguments {@code from} (inclusive) to {@code to} (exclusive), null for
     * a missing key; fails with WRONGTYPE if any holds another type. Reads issued together.
     */
    private static CompletableFuture<List<KeyMeta>> sources(Invocation inv, Transaction tr, int from, int to) {
        List<CompletableFuture<KeyMeta>> reads = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            reads.add(keys(inv).get(tr, inv.db(), inv.arg(i), inv.now()));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<KeyMeta> metas = new ArrayList<>(reads.size());
            for (CompletableFuture<KeyMeta> r : reads) {
                metas.add(KeyStore.requireType(r.join(), RedisType.SET));
            }
            return metas;
        });
    }

    private static List<KeyMeta> withoutMissing(List<KeyMeta> metas) {
        List<KeyMeta> present = new ArrayList<>(metas.size());
        for (KeyMeta m : metas) {
            if (m != null) {
                present.add(m);
            }
        }
        return present;
    }

    private static List<RoaringSet> sets(Invocation inv, List<KeyMeta> metas) {
        List<RoaringSet> sets = new ArrayList<>(metas.size());
        for (KeyMeta m : metas) {
            sets.add(ids(inv, m));
        }
        return sets;
    }
}
