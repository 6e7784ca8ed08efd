package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.config.NotifyKeyspaceEvents.GENERIC;
import static io.strata.redis.config.NotifyKeyspaceEvents.HASH;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.LongDouble;
import io.strata.redis.command.Numbers;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The hash commands of Redis 7.0 (HRANDFIELD in {@link HashRandomField}, HSCAN in
 * {@link HashScan}). Each runs in one transaction and finds every error before its first
 * write, so inside EXEC a failing command leaves nothing behind. Fields are stored as
 * {@link HashObject} describes; a hash whose last field goes is deleted, as Redis never keeps
 * an empty one.
 */
final class HashCommands {
    private HashCommands() {
    }

    static void register(CommandTable t) {
        t.add("hset", -4, "write denyoom fast", 1, 1, 1, "hash", DATA, HashCommands::hset);
        t.add("hmset", -4, "write denyoom fast", 1, 1, 1, "hash", DATA, HashCommands::hset);
        t.add("hsetnx", 4, "write denyoom fast", 1, 1, 1, "hash", DATA, HashCommands::hsetnx);
        t.add("hget", 3, "readonly fast", 1, 1, 1, "hash", DATA, HashCommands::hget);
        t.add("hmget", -3, "readonly fast", 1, 1, 1, "hash", DATA, HashCommands::hmget);
        t.add("hdel", -3, "write fast", 1, 1, 1, "hash", DATA, HashCommands::hdel);
        t.add("hlen", 2, "readonly fast", 1, 1, 1, "hash", DATA, HashCommands::hlen);
        t.add("hstrlen", 3, "readonly fast", 1, 1, 1, "hash", DATA, HashCommands::hstrlen);
        t.add("hexists", 3, "readonly fast", 1, 1, 1, "hash", DATA, HashCommands::hexists);
        t.add("hkeys", 2, "readonly", 1, 1, 1, "hash", DATA, (inv, tr) -> all(inv, tr, true, false));
        t.add("hvals", 2, "readonly", 1, 1, 1, "hash", DATA, (inv, tr) -> all(inv, tr, false, true));
        t.add("hgetall", 2, "readonly", 1, 1, 1, "hash", DATA, (inv, tr) -> all(inv, tr, true, true));
        t.add("hincrby", 4, "write denyoom fast", 1, 1, 1, "hash", DATA, HashCommands::hincrby);
        t.add("hincrbyfloat", 4, "write denyoom fast", 1, 1, 1, "hash", DATA, HashCommands::hincrbyfloat);
        t.add("hrandfield", -2, "readonly", 1, 1, 1, "hash", DATA, HashRandomField::hrandfield);
        t.add("hscan", -3, "readonly", 1, 1, 1, "hash", DATA, HashScan::hscan);
    }

    /** HSET key field value [field value ...] (the number of fields added); HMSET the same, answering OK. */
    private static CompletableFuture<Reply> hset(Invocation inv, Transaction tr) {
        if (inv.argc() % 2 == 1) {
            throw new RedisException("ERR wrong number of arguments for '" + inv.spec().name() + "' command");
        }
        // A field named twice is set once, to its last value, and counted once, as in Redis.
        // But every argument counts for the encoding, as in Redis's hashTypeTryConversion: a
        // long value overwritten in the same command still makes the hash a hash table.
        Map<ByteBuffer, byte[]> values = new LinkedHashMap<>();
        HashObject.SmallLimits limits = HashKeys.smallLimits(inv);
        boolean argumentsFit = true;
        for (int i = 2; i < inv.argc(); i += 2) {
            HashKeys.checkFits(inv, inv.arg(i), inv.arg(i + 1));
            values.put(ByteBuffer.wrap(inv.arg(i)), inv.arg(i + 1));
            argumentsFit &= limits.fits(inv.arg(i).length) && limits.fits(inv.arg(i + 1).length);
        }
        boolean everyArgumentFits = argumentsFit;
        boolean hmset = inv.spec().name().equals("hmset");
        return HashKeys.forWrite(inv, tr).thenCompose(meta -> {
            CompletableFuture<List<byte[]>> added = meta == null
                    ? CompletableFuture.completedFuture(values.keySet().stream().map(ByteBuffer::array).toList())
                    : absent(tr, HashKeys.open(inv, meta), values.keySet());
            return added.thenCompose(fields -> HashKeys.write(inv, tr, meta, values, fields, everyArgumentFits)
                    .thenApply(ignored -> {
                        inv.keyspaceEvent(tr, HASH, "hset", inv.arg(1));
                        return hmset ? Reply.OK : Reply.integer(fields.size());
                    }));
        });
    }

    /** Those of {@code fields} the hash lacks, in the order given. */
    private static CompletableFuture<List<byte[]>> absent(Transaction tr, HashObject h, Set<ByteBuffer> fields) {
        List<CompletableFuture<Boolean>> reads = new ArrayList<>(fields.size());
        for (ByteBuffer f : fields) {
            reads.add(h.existsForOverwrite(tr, f.array()));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<byte[]> missing = new ArrayList<>();
            int i = 0;
            for (ByteBuffer f : fields) {
                if (!reads.get(i++).join()) {
                    missing.add(f.array());
                }
            }
            return missing;
        });
    }

    private static CompletableFuture<Reply> hsetnx(Invocation inv, Transaction tr) {
        byte[] field = inv.arg(2);
        byte[] value = inv.arg(3);
        HashKeys.checkFits(inv, field, value);
        return HashKeys.forWrite(inv, tr).thenCompose(meta -> {
            CompletableFuture<Boolean> exists = meta == null
                    ? CompletableFuture.completedFuture(false)
                    : HashKeys.open(inv, meta).existsForOverwrite(tr, field);
            return exists.thenCompose(present -> present
                    ? CompletableFuture.completedFuture(Reply.ZERO)
                    : HashKeys.write(inv, tr, meta, field, value, true).thenApply(ignored -> {
                        inv.keyspaceEvent(tr, HASH, "hset", inv.arg(1));
                        return Reply.ONE;
                    }));
        });
    }

    private static CompletableFuture<Reply> hget(Invocation inv, Transaction tr) {
        return HashKeys.read(inv, tr).thenCompose(h -> h == null
                ? CompletableFuture.completedFuture(Reply.NULL_BULK)
                : h.get(tr, inv.arg(2)).thenApply(Reply::bulk));
    }

    private static CompletableFuture<Reply> hmget(Invocation inv, Transaction tr) {
        return HashKeys.read(inv, tr).thenCompose(h -> {
            List<CompletableFuture<byte[]>> values = new ArrayList<>();
            for (int i = 2; i < inv.argc(); i++) {
                values.add(h == null ? CompletableFuture.completedFuture(null) : h.get(tr, inv.arg(i)));
            }
            return CompletableFuture.allOf(values.toArray(new CompletableFuture[0])).thenApply(ignored -> {
                List<Reply> replies = new ArrayList<>(values.size());
                for (CompletableFuture<byte[]> v : values) {
                    replies.add(Reply.bulk(v.join()));
                }
                return Reply.array(replies);
            });
        });
    }

    /** HDEL key field [field ...]: the number removed; the key goes with its last field. */
    private static CompletableFuture<Reply> hdel(Invocation inv, Transaction tr) {
        Set<ByteBuffer> fields = new LinkedHashSet<>();
        for (int i = 2; i < inv.argc(); i++) {
            fields.add(ByteBuffer.wrap(inv.arg(i)));
        }
        return HashKeys.forWrite(inv, tr).thenCompose(meta -> {
            if (meta == null) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            HashObject h = HashKeys.open(inv, meta);
            List<byte[]> present = new ArrayList<>();
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            for (ByteBuffer f : fields) {
                reads.add(h.get(tr, f.array()).thenAccept(v -> {
                    if (v != null) {
                        synchronized (present) {
                            present.add(f.array());
                        }
                    }
                }));
            }
            // Serializable: whether this removes the last field must hold at commit.
            CompletableFuture<Long> size = h.size(tr);
            return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenCombine(size, (ignored, n) -> {
                if (present.isEmpty()) {
                    return CompletableFuture.completedFuture(Reply.ZERO);
                }
                inv.keyspaceEvent(tr, HASH, "hdel", inv.arg(1));
                if (n == present.size()) {
                    inv.server().keys().delete(tr, inv.db(), inv.arg(1), meta);
                    inv.keyspaceEvent(tr, GENERIC, "del", inv.arg(1));
                    return CompletableFuture.completedFuture(Reply.integer(present.size()));
                }
                present.forEach(f -> h.remove(tr, f));
                h.addToSize(tr, -present.size());
                inv.server().keys().touch(tr, inv.db(), inv.arg(1));
                return h.shrinkOrder(tr, present).thenApply(done -> Reply.integer(present.size()));
            }).thenCompose(r -> r);
        });
    }

    private static CompletableFuture<Reply> hlen(Invocation inv, Transaction tr) {
        return HashKeys.read(inv, tr).thenCompose(h -> h == null
                ? CompletableFuture.completedFuture(Reply.ZERO)
                : h.size(tr).thenApply(Reply::integer));
    }

    private static CompletableFuture<Reply> hstrlen(Invocation inv, Transaction tr) {
        return HashKeys.read(inv, tr).thenCompose(h -> h == null
                ? CompletableFuture.completedFuture(Reply.ZERO)
                : h.get(tr, inv.arg(2)).thenApply(v -> Reply.integer(v == null ? 0 : v.length)));
    }

    private static CompletableFuture<Reply> hexists(Invocation inv, Transaction tr) {
        return HashKeys.read(inv, tr).thenCompose(h -> h == null
                ? CompletableFuture.completedFuture(Reply.ZERO)
                : h.get(tr, inv.arg(2)).thenApply(v -> v == null ? Reply.ZERO : Reply.ONE));
    }

    /** HKEYS, HVALS and HGETALL; HGETALL answers a map (RESP3), the others an array. */
    private static CompletableFuture<Reply> all(Invocation inv, Transaction tr, boolean fields, boolean values) {
        boolean map = fields && values;
        return HashKeys.read(inv, tr).thenCompose(h -> {
            if (h == null) {
                return CompletableFuture.completedFuture(map ? Reply.map(List.of()) : Reply.EMPTY_ARRAY);
            }
            return h.allInOrder(tr).thenApply(kvs -> {
                List<Reply> out = new ArrayList<>(map ? kvs.size() * 2 : kvs.size());
                for (KeyValue kv : kvs) {
                    if (fields) {
                        out.add(Reply.bulk(h.fieldOf(kv.getKey())));
                    }
                    if (values) {
                        out.add(Reply.bulk(kv.getValue()));
                    }
                }
                return map ? Reply.map(out) : Reply.array(out);
            });
        });
    }

    private static CompletableFuture<Reply> hincrby(Invocation inv, Transaction tr) {
        long by = inv.longArg(3);
        byte[] field = inv.arg(2);
        HashKeys.checkFits(inv, field, null);
        return HashKeys.forWrite(inv, tr).thenCompose(meta -> current(inv, tr, meta, field).thenCompose(v -> {
            long old = v == null ? 0 : Numbers.parseLong(v, "ERR hash value is not an integer");
            if ((by < 0 && old < 0 && by < Long.MIN_VALUE - old) || (by > 0 && old > 0 && by > Long.MAX_VALUE - old)) {
                throw new RedisException("ERR increment or decrement would overflow");
            }
            long sum = old + by;
            byte[] text = Long.toString(sum).getBytes(StandardCharsets.US_ASCII);
            return HashKeys.write(inv, tr, meta, field, text, v == null).thenApply(ignored -> {
                inv.keyspaceEvent(tr, HASH, "hincrby", inv.arg(1));
                return Reply.integer(sum);
            });
        }));
    }

    private static CompletableFuture<Reply> hincrbyfloat(Invocation inv, Transaction tr) {
        LongDouble by = LongDouble.parse(inv.arg(3));
        if (by == null) {
            throw new RedisException(RedisException.NOT_FLOAT);
        }
        if (by.isInfinite()) {
            throw new RedisException("ERR value is NaN or Infinity");
        }
        byte[] field = inv.arg(2);
        HashKeys.checkFits(inv, field, null);
        return HashKeys.forWrite(inv, tr).thenCompose(meta -> current(inv, tr, meta, field).thenCompose(v -> {
            LongDouble old = v == null ? LongDouble.ZERO : LongDouble.parse(v);
            if (old == null) {
                throw new RedisException("ERR hash value is not a float");
            }
            LongDouble sum = old.plus(by);
            if (sum == null || sum.isInfinite()) {
                throw new RedisException("ERR increment would produce NaN or Infinity");
            }
            byte[] text = sum.toHumanString().getBytes(StandardCharsets.US_ASCII);
            return HashKeys.write(inv, tr, meta, field, text, v == null).thenApply(ignored -> {
                inv.keyspaceEvent(tr, HASH, "hincrbyfloat", inv.arg(1));
                return Reply.bulk(text);
            });
        }));
    }

    /** The field's value in the hash of {@code meta}; null when the field or the hash is absent. */
    private static CompletableFuture<byte[]> current(Invocation inv, Transaction tr, KeyMeta meta, byte[] field) {
        return meta == null ? CompletableFuture.completedFuture(null) : HashKeys.open(inv, meta).get(tr, field);
    }
}
