package io.strata.redis.commands;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** What the sorted-set commands share: opening, creating and retiring a key's set, and score replies. */
final class ZSets {
    private ZSets() {
    }

    /** A sorted-set key as one command sees it: its metadata (null if absent) and its elements. */
    record Opened(KeyMeta meta, ZSetObject set) {
        boolean exists() {
            return meta != null;
        }
    }

    static CompletableFuture<Opened> read(Invocation inv, Transaction tr, byte[] key) {
        KeyStore keys = inv.server().keys();
        return keys.get(tr, inv.db(), key, inv.now(), RedisType.ZSET)
                .thenApply(m -> new Opened(m, m == null ? null : new ZSetObject(keys.objectOf(inv.db(), m))));
    }

    static CompletableFuture<Opened> forWrite(Invocation inv, Transaction tr, byte[] key) {
        KeyStore keys = inv.server().keys();
        return keys.getForWrite(tr, inv.db(), key, inv.now(), RedisType.ZSET)
                .thenApply(m -> new Opened(m, m == null ? null : new ZSetObject(keys.objectOf(inv.db(), m))));
    }

    /** A new, empty sorted set at {@code key} (replacing {@code old}, any type, when given). */
    static CompletableFuture<Opened> create(Invocation inv, Transaction tr, byte[] key, KeyMeta old) {
        return allocate(inv, tr).thenApply(z -> {
            install(inv, tr, key, old, z);
            return z;
        });
    }

    /** A new sorted set not yet at any key: checks can run on it before {@link #install} writes. */
    static CompletableFuture<Opened> allocate(Invocation inv, Transaction tr) {
        KeyStore keys = inv.server().keys();
        return keys.newObjectId(tr).thenApply(id -> {
            KeyMeta meta = new KeyMeta(RedisType.ZSET, KeyMeta.OBJECT, 0, ObjectRef.payload(id, new byte[0]));
            return new Opened(meta, new ZSetObject(keys.objectOf(inv.db(), meta)));
        });
    }

    /** Puts an {@link #allocate}d set at {@code key}, replacing {@code old} (null: the key is created). */
    static void install(Invocation inv, Transaction tr, byte[] key, KeyMeta old, Opened z) {
        inv.server().keys().put(tr, inv.db(), key, old, z.meta());
    }

    /**
     * After removals: publishes {@code event} (unless null), then deletes the key if the set is
     * empty (Redis keeps no empty set) and publishes {@code del}, else marks it changed.
     */
    static CompletableFuture<Void> settle(Invocation inv, Transaction tr, byte[] key, Opened z, String event) {
        return z.set().count(tr).thenAccept(n -> {
            if (event != null) {
                inv.keyspaceEvent(tr, NotifyKeyspaceEvents.ZSET, event, key);
            }
            if (n == 0) {
                inv.server().keys().delete(tr, inv.db(), key, z.meta());
                inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", key);
            } else {
                inv.server().keys().touch(tr, inv.db(), key);
            }
        });
    }

    /**
     * Members with scores as Redis 7.0 replies them: RESP2 a flat array (member, score, …);
     * RESP3 an array of [member, score] pairs.
     */
    static Reply withScores(Invocation inv, List<byte[]> elements) {
        List<Reply> out = new ArrayList<>();
        boolean pairs = inv.session().protocol() >= 3;
        for (byte[] e : elements) {
            Reply member = Reply.bulk(ZSetObject.memberOf(e));
            Reply score = Reply.doubleValue(ZSetObject.scoreOf(e));
            if (pairs) {
                out.add(Reply.array(member, score));
            } else {
                out.add(member);
                out.add(score);
            }
        }
        return Reply.array(out);
    }

    static Reply members(List<byte[]> elements) {
        List<Reply> out = new ArrayList<>(elements.size());
        for (byte[] e : elements) {
            out.add(Reply.bulk(ZSetObject.memberOf(e)));
        }
        return Reply.array(out);
    }

    /** Runs {@code steps} one after another (the ranked set's changes must not overlap in one transaction). */
    static <T> CompletableFuture<Void> sequentially(List<T> items, java.util.function.Function<T, CompletableFuture<?>> step) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (T item : items) {
            chain = chain.thenCompose(ignored -> step.apply(item)).thenApply(ignored -> null);
        }
        return chain;
    }
}
