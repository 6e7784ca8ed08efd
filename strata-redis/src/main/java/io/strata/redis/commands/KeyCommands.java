package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.config.NotifyKeyspaceEvents.GENERIC;
import static io.strata.redis.config.NotifyKeyspaceEvents.NEW;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.GlobPattern;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.OptionWords;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.protocol.ErrorText;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The generic key commands: DEL, EXISTS, TYPE, the expiry family, RENAME, KEYS, TOUCH. */
final class KeyCommands {
    private KeyCommands() {
    }

    static void register(CommandTable t) {
        t.add("del", -2, "write", 1, -1, 1, "keyspace", DATA, KeyCommands::del);
        t.add("unlink", -2, "write fast", 1, -1, 1, "keyspace", DATA, KeyCommands::del);
        t.add("exists", -2, "readonly fast", 1, -1, 1, "keyspace", DATA, KeyCommands::exists);
        t.add("touch", -2, "readonly fast", 1, -1, 1, "keyspace", DATA, KeyCommands::exists);
        t.add("type", 2, "readonly fast", 1, 1, 1, "keyspace", DATA, KeyCommands::type);
        t.add("expire", -3, "write fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> expire(inv, tr, 1000, true));
        t.add("pexpire", -3, "write fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> expire(inv, tr, 1, true));
        t.add("expireat", -3, "write fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> expire(inv, tr, 1000, false));
        t.add("pexpireat", -3, "write fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> expire(inv, tr, 1, false));
        t.add("ttl", 2, "readonly fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> ttl(inv, tr, false, false));
        t.add("pttl", 2, "readonly fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> ttl(inv, tr, true, false));
        t.add("expiretime", 2, "readonly fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> ttl(inv, tr, false, true));
        t.add("pexpiretime", 2, "readonly fast", 1, 1, 1, "keyspace", DATA, (inv, tr) -> ttl(inv, tr, true, true));
        t.add("persist", 2, "write fast", 1, 1, 1, "keyspace", DATA, KeyCommands::persist);
        t.add("rename", 3, "write", 1, 2, 1, "keyspace", DATA, (inv, tr) -> rename(inv, tr, false));
        t.add("renamenx", 3, "write fast", 1, 2, 1, "keyspace", DATA, (inv, tr) -> rename(inv, tr, true));
        t.add("keys", 2, "readonly", 0, 0, 0, "keyspace dangerous", DATA, KeyCommands::keys);
    }

    private static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    private static CompletableFuture<Reply> del(Invocation inv, Transaction tr) {
        int db = inv.db();
        List<CompletableFuture<Boolean>> deleted = new ArrayList<>();
        List<byte[]> distinct = new ArrayList<>();
        // Each distinct key once: DEL a a counts a once.
        java.util.Set<java.nio.ByteBuffer> seen = new java.util.HashSet<>();
        for (int i = 1; i < inv.argc(); i++) {
            byte[] key = inv.arg(i);
            if (!seen.add(java.nio.ByteBuffer.wrap(key))) {
                continue;
            }
            distinct.add(key);
            deleted.add(keys(inv).getForWrite(tr, db, key, inv.now()).thenApply(m -> {
                if (m == null) {
                    return false;
                }
                keys(inv).delete(tr, db, key, m);
                return true;
            }));
        }
        return countTrue(deleted).thenApply(reply -> {
            // The events in the order of the arguments, whatever order the reads completed in.
            for (int i = 0; i < distinct.size(); i++) {
                if (deleted.get(i).join()) {
                    inv.keyspaceEvent(tr, GENERIC, "del", distinct.get(i));
                }
            }
            return reply;
        });
    }

    private static CompletableFuture<Reply> exists(Invocation inv, Transaction tr) {
        List<CompletableFuture<Boolean>> found = new ArrayList<>();
        for (int i = 1; i < inv.argc(); i++) {
            found.add(keys(inv).get(tr, inv.db(), inv.arg(i), inv.now()).thenApply(m -> m != null));
        }
        return countTrue(found);
    }

    private static CompletableFuture<Reply> countTrue(List<CompletableFuture<Boolean>> flags) {
        return CompletableFuture.allOf(flags.toArray(new CompletableFuture[0]))
                .thenApply(ignored -> Reply.integer(flags.stream().filter(CompletableFuture::join).count()));
    }

    private static CompletableFuture<Reply> type(Invocation inv, Transaction tr) {
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now())
                .thenApply(m -> Reply.simple(m == null ? "none" : m.type().typeName()));
    }

    /** EXPIRE key amount [NX|XX|GT|LT]: {@code scale} 1000 for seconds; {@code relative} for EXPIRE/PEXPIRE. */
    private static CompletableFuture<Reply> expire(Invocation inv, Transaction tr, long scale, boolean relative) {
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        for (int i = 3; i < inv.argc(); i++) {
            byte[] opt = inv.arg(i);
            if (OptionWords.is(opt, "NX")) {
                nx = true;
            } else if (OptionWords.is(opt, "XX")) {
                xx = true;
            } else if (OptionWords.is(opt, "GT")) {
                gt = true;
            } else if (OptionWords.is(opt, "LT")) {
                lt = true;
            } else {
                // addReplyErrorFormat: newlines at the ends go, those inside become spaces.
                throw new RedisException(ErrorText.trimmed("ERR Unsupported option " + inv.argText(i)));
            }
        }
        if (nx && (xx || gt || lt)) {
            throw new RedisException("ERR NX and XX, GT or LT options at the same time are not compatible");
        }
        if (gt && lt) {
            throw new RedisException("ERR GT and LT options at the same time are not compatible");
        }
        // Redis checks the options before the amount.
        long amount = inv.longArg(2);
        String name = inv.spec().name();
        if (scale == 1000 && (amount > Long.MAX_VALUE / 1000 || amount < Long.MIN_VALUE / 1000)) {
            throw Expiry.invalid(name);
        }
        long when = amount * scale;
        long base = relative ? inv.now() : 0;
        if (when > Long.MAX_VALUE - base) {
            throw Expiry.invalid(name);
        }
        long at = when + base;
        boolean fnx = nx;
        boolean fxx = xx;
        boolean fgt = gt;
        boolean flt = lt;
        int db = inv.db();
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, db, key, inv.now()).thenApply(m -> {
            if (m == null) {
                return Reply.ZERO;
            }
            // No expiry counts as an infinite one: GT never passes, LT always does.
            boolean has = m.hasExpiry();
            long current = m.expireAtMillis();
            if ((fnx && has) || (fxx && !has) || (fgt && (!has || at <= current)) || (flt && has && at >= current)) {
                return Reply.ZERO;
            }
            if (at <= inv.now()) {
                keys(inv).delete(tr, db, key, m);
                inv.keyspaceEvent(tr, GENERIC, "del", key);
            } else {
                keys(inv).put(tr, db, key, m, m.withExpiry(at));
                inv.keyspaceEvent(tr, GENERIC, "expire", key);
            }
            return Reply.ONE;
        });
    }

    private static CompletableFuture<Reply> ttl(Invocation inv, Transaction tr, boolean millis, boolean absolute) {
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now()).thenApply(m -> {
            if (m == null) {
                return Reply.integer(-2);
            }
            if (!m.hasExpiry()) {
                return Reply.integer(-1);
            }
            if (absolute) {
                return Reply.integer(millis ? m.expireAtMillis() : m.expireAtMillis() / 1000);
            }
            long left = Math.max(0, m.expireAtMillis() - inv.now());
            return Reply.integer(millis ? left : (left + 500) / 1000);
        });
    }

    private static CompletableFuture<Reply> persist(Invocation inv, Transaction tr) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, db, key, inv.now()).thenApply(m -> {
            if (m == null || !m.hasExpiry()) {
                return Reply.ZERO;
            }
            keys(inv).put(tr, db, key, m, m.withExpiry(0));
            inv.keyspaceEvent(tr, GENERIC, "persist", key);
            return Reply.ONE;
        });
    }

    private static CompletableFuture<Reply> rename(Invocation inv, Transaction tr, boolean nx) {
        int db = inv.db();
        byte[] from = inv.arg(1);
        byte[] to = inv.arg(2);
        CompletableFuture<KeyMeta> source = keys(inv).getForWrite(tr, db, from, inv.now());
        if (Arrays.equals(from, to)) {
            return source.thenApply(m -> {
                if (m == null) {
                    throw new RedisException("ERR no such key");
                }
                return nx ? Reply.ZERO : Reply.OK;
            });
        }
        CompletableFuture<KeyMeta> target = keys(inv).getForWrite(tr, db, to, inv.now());
        return source.thenCombine(target, (m, existing) -> {
            if (m == null) {
                throw new RedisException("ERR no such key");
            }
            if (nx && existing != null) {
                return Reply.ZERO;
            }
            keys(inv).detach(tr, db, from, m);
            if (existing != null) {
                // Redis deletes the old destination and creates the key anew.
                inv.keyspaceEvent(tr, NEW, "new", to);
            }
            keys(inv).put(tr, db, to, existing, m);
            inv.keyspaceEvent(tr, GENERIC, "rename_from", from);
            inv.keyspaceEvent(tr, GENERIC, "rename_to", to);
            return nx ? Reply.ONE : Reply.OK;
        });
    }

    private static CompletableFuture<Reply> keys(Invocation inv, Transaction tr) {
        byte[] pattern = inv.arg(1);
        long now = inv.now();
        Range range = keys(inv).keyspace().metaRange(inv.db());
        return tr.snapshot().getRange(range).asList().thenApply(kvs -> {
            List<Reply> out = new ArrayList<>();
            for (KeyValue kv : kvs) {
                byte[] key = keys(inv).keyspace().keyOfMeta(kv.getKey());
                if (KeyMeta.decode(kv.getValue()).expiredAt(now)) {
                    continue;
                }
                if (GlobPattern.matches(pattern, key)) {
                    out.add(Reply.bulk(key));
                }
            }
            return Reply.array(out);
        });
    }
}
