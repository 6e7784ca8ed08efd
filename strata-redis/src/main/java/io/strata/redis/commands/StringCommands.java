package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.config.NotifyKeyspaceEvents.EXPIRED;
import static io.strata.redis.config.NotifyKeyspaceEvents.GENERIC;
import static io.strata.redis.config.NotifyKeyspaceEvents.KEY_MISS;
import static io.strata.redis.config.NotifyKeyspaceEvents.NEW;
import static io.strata.redis.config.NotifyKeyspaceEvents.STRING;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.LongDouble;
import io.strata.redis.command.Numbers;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The string commands of Redis 7.0 (the bit commands and LCS live in their own group). Each
 * runs in one transaction; every check comes before the first write. Keyspace events follow
 * Redis's {@code t_string.c}: {@code set}, {@code expire}, {@code setrange}, {@code incrby},
 * {@code incrbyfloat}, {@code append}, {@code del} (GETDEL, GETEX in the past), {@code persist}.
 */
final class StringCommands {
    private StringCommands() {
    }

    static void register(CommandTable t) {
        t.add("get", 2, "readonly fast", 1, 1, 1, "string", DATA, StringCommands::get);
        t.add("set", -3, "write denyoom", 1, 1, 1, "string", DATA, StringCommands::set);
        t.add("setnx", 3, "write denyoom fast", 1, 1, 1, "string", DATA, (inv, tr) -> set(inv, tr, inv.arg(2), true, false, 0, false, false));
        t.add("setex", 4, "write denyoom", 1, 1, 1, "string", DATA, (inv, tr) -> setex(inv, tr, "EX"));
        t.add("psetex", 4, "write denyoom", 1, 1, 1, "string", DATA, (inv, tr) -> setex(inv, tr, "PX"));
        t.add("getset", 3, "write denyoom fast", 1, 1, 1, "string", DATA, (inv, tr) -> set(inv, tr, inv.arg(2), false, false, 0, false, true));
        t.add("getdel", 2, "write fast", 1, 1, 1, "string", DATA, StringCommands::getdel);
        t.add("getex", -2, "write fast", 1, 1, 1, "string", DATA, StringCommands::getex);
        t.add("mget", -2, "readonly fast", 1, -1, 1, "string", DATA, StringCommands::mget);
        t.add("mset", -3, "write denyoom", 1, -1, 2, "string", DATA, (inv, tr) -> mset(inv, tr, false));
        t.add("msetnx", -3, "write denyoom", 1, -1, 2, "string", DATA, (inv, tr) -> mset(inv, tr, true));
        t.add("append", 3, "write denyoom fast", 1, 1, 1, "string", DATA, StringCommands::append);
        t.add("strlen", 2, "readonly fast", 1, 1, 1, "string", DATA, StringCommands::strlen);
        t.add("getrange", 4, "readonly", 1, 1, 1, "string", DATA, StringCommands::getrange);
        t.add("substr", 4, "readonly", 1, 1, 1, "string", DATA, StringCommands::getrange);
        t.add("setrange", 4, "write denyoom", 1, 1, 1, "string", DATA, StringCommands::setrange);
        t.add("incr", 2, "write denyoom fast", 1, 1, 1, "string", DATA, (inv, tr) -> incrBy(inv, tr, 1));
        t.add("decr", 2, "write denyoom fast", 1, 1, 1, "string", DATA, (inv, tr) -> incrBy(inv, tr, -1));
        t.add("incrby", 3, "write denyoom fast", 1, 1, 1, "string", DATA, (inv, tr) -> incrBy(inv, tr, inv.longArg(2)));
        t.add("decrby", 3, "write denyoom fast", 1, 1, 1, "string", DATA, StringCommands::decrby);
        t.add("incrbyfloat", 3, "write denyoom fast", 1, 1, 1, "string", DATA, StringCommands::incrbyfloat);
    }

    private static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    private static CompletableFuture<Reply> get(Invocation inv, Transaction tr) {
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null) {
                inv.server().stats().keyspaceMisses.increment();
                return CompletableFuture.completedFuture(Reply.NULL_BULK);
            }
            inv.server().stats().keyspaceHits.increment();
            return StringValues.read(tr, inv.server().keys(), inv.db(), m).thenApply(Reply::bulk);
        });
    }

    /**
     * SET key value [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL]. As Redis's
     * {@code setCommand}: the options' syntax first, then the expiry's value, then GET's type
     * check (in {@link #set(Invocation, Transaction, byte[], boolean, boolean, long, boolean, boolean)}).
     */
    private static CompletableFuture<Reply> set(Invocation inv, Transaction tr) {
        ExtendedStringOptions o = ExtendedStringOptions.forSet(inv);
        long expireAt = o.hasExpiry() ? o.expireAt(inv, "set") : 0;
        return set(inv, tr, inv.arg(2), o.has(ExtendedStringOptions.NX), o.has(ExtendedStringOptions.XX), expireAt,
                o.has(ExtendedStringOptions.KEEPTTL), o.has(ExtendedStringOptions.GET));
    }

    /**
     * The heart of SET and its variants. Replies: with {@code get}, the old value (nil if none);
     * else OK, or nil when NX/XX refused — SETNX answers 1/0 instead.
     */
    private static CompletableFuture<Reply> set(Invocation inv, Transaction tr, byte[] value, boolean nx, boolean xx,
                                                long expireAt, boolean keepTtl, boolean get) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        boolean setnx = inv.spec().name().equals("setnx");
        return keys(inv).getForWrite(tr, db, key, inv.now()).thenCompose(old -> {
            if (get && old != null && old.type() != RedisType.STRING) {
                throw RedisException.wrongType();
            }
            if (get && old == null) {
                // Redis reads the old value as GET does: a miss.
                inv.keyspaceEvent(tr, KEY_MISS, "keymiss", key);
            }
            CompletableFuture<byte[]> previous = get && old != null ? StringValues.read(tr, inv.server().keys(), inv.db(), old) : CompletableFuture.completedFuture(null);
            return previous.thenApply(prev -> {
                boolean refused = (nx && old != null) || (xx && old == null);
                if (refused) {
                    return setnx ? Reply.ZERO : get ? Reply.bulk(prev) : Reply.NULL_BULK;
                }
                long at = keepTtl && old != null ? old.expireAtMillis() : expireAt;
                boolean alreadyExpired = at != 0 && at <= inv.now();
                if (alreadyExpired) {
                    // An expiry already past: Redis stores, then the key expires; here it is deleted at once.
                    if (old != null) {
                        keys(inv).delete(tr, db, key, old);
                    } else {
                        inv.keyspaceEvent(tr, NEW, "new", key);
                    }
                    keys(inv).expiredAtOnce(tr, db, key);
                } else {
                    inv.await(StringValues.writeArgument(inv, tr, db, key, old, value, at));
                }
                inv.keyspaceEvent(tr, STRING, "set", key);
                if (expireAt != 0) {
                    inv.keyspaceEvent(tr, GENERIC, "expire", key);
                }
                if (alreadyExpired) {
                    // Redis keeps the key until its expiry is noticed, which publishes expired.
                    inv.keyspaceEvent(tr, EXPIRED, "expired", key);
                }
                if (setnx) {
                    return Reply.ONE;
                }
                return get ? Reply.bulk(prev) : Reply.OK;
            });
        });
    }

    private static CompletableFuture<Reply> setex(Invocation inv, Transaction tr, String unit) {
        long amount = inv.longArg(2);
        long at = Expiry.at(unit, amount, inv.now(), inv.spec().name());
        return set(inv, tr, inv.arg(3), false, false, at, false, false);
    }

    private static CompletableFuture<Reply> getdel(Invocation inv, Transaction tr) {
        return keys(inv).getForWrite(tr, inv.db(), inv.arg(1), inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null) {
                inv.keyspaceEvent(tr, KEY_MISS, "keymiss", inv.arg(1));
                return CompletableFuture.completedFuture(Reply.NULL_BULK);
            }
            return StringValues.read(tr, inv.server().keys(), inv.db(), m).thenApply(v -> {
                keys(inv).delete(tr, inv.db(), inv.arg(1), m);
                inv.keyspaceEvent(tr, GENERIC, "del", inv.arg(1));
                return Reply.bulk(v);
            });
        });
    }

    /**
     * GETEX key [EX s|PX ms|EXAT s|PXAT ms|PERSIST]. As Redis's {@code getexCommand}: the
     * options' syntax first, then the key (nil when missing, WRONGTYPE when not a string), and
     * only then the expiry's value — so {@code GETEX missing EX 0} is nil, not an error.
     */
    private static CompletableFuture<Reply> getex(Invocation inv, Transaction tr) {
        ExtendedStringOptions o = ExtendedStringOptions.forGetex(inv);
        int db = inv.db();
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, db, key, inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null) {
                inv.keyspaceEvent(tr, KEY_MISS, "keymiss", key);
                return CompletableFuture.completedFuture(Reply.NULL_BULK);
            }
            long at = o.hasExpiry() ? o.expireAt(inv, "getex") : 0;
            return StringValues.read(tr, inv.server().keys(), inv.db(), m).thenApply(v -> {
                if (o.absolute() && at <= inv.now()) {
                    keys(inv).delete(tr, db, key, m);
                    inv.keyspaceEvent(tr, GENERIC, "del", key);
                } else if (o.hasExpiry()) {
                    keys(inv).put(tr, db, key, m, m.withExpiry(at));
                    inv.keyspaceEvent(tr, GENERIC, "expire", key);
                } else if (o.has(ExtendedStringOptions.PERSIST) && m.hasExpiry()) {
                    keys(inv).put(tr, db, key, m, m.withExpiry(0));
                    inv.keyspaceEvent(tr, GENERIC, "persist", key);
                }
                return Reply.bulk(v);
            });
        });
    }

    private static CompletableFuture<Reply> mget(Invocation inv, Transaction tr) {
        List<CompletableFuture<byte[]>> values = new ArrayList<>();
        for (int i = 1; i < inv.argc(); i++) {
            values.add(keys(inv).get(tr, inv.db(), inv.arg(i), inv.now()).thenCompose(m ->
                    m == null || m.type() != RedisType.STRING ? CompletableFuture.completedFuture(null) : StringValues.read(tr, inv.server().keys(), inv.db(), m)));
        }
        return CompletableFuture.allOf(values.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<Reply> replies = new ArrayList<>(values.size());
            for (CompletableFuture<byte[]> v : values) {
                replies.add(Reply.bulk(v.join()));
            }
            return Reply.array(replies);
        });
    }

    private static CompletableFuture<Reply> mset(Invocation inv, Transaction tr, boolean nx) {
        if (inv.argc() % 2 == 0) {
            throw new RedisException("ERR wrong number of arguments for '" + inv.spec().name() + "' command");
        }
        int db = inv.db();
        // The last value of a key named twice wins, as in Redis.
        Map<java.nio.ByteBuffer, byte[]> pairs = new LinkedHashMap<>();
        for (int i = 1; i < inv.argc(); i += 2) {
            pairs.put(java.nio.ByteBuffer.wrap(inv.arg(i)), inv.arg(i + 1));
        }
        for (byte[] v : pairs.values()) {
            StringValues.checkArgument(inv, v);
        }
        List<byte[]> keyList = new ArrayList<>();
        List<CompletableFuture<KeyMeta>> olds = new ArrayList<>();
        for (java.nio.ByteBuffer k : pairs.keySet()) {
            byte[] key = k.array();
            keyList.add(key);
            olds.add(keys(inv).getForWrite(tr, db, key, inv.now()));
        }
        return CompletableFuture.allOf(olds.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            if (nx) {
                for (CompletableFuture<KeyMeta> o : olds) {
                    if (o.join() != null) {
                        return Reply.ZERO;
                    }
                }
            }
            // Each key is written once, with its last value; the events are one per pair, as Redis sets each pair in turn.
            Map<java.nio.ByteBuffer, KeyMeta> old = new LinkedHashMap<>();
            for (int i = 0; i < keyList.size(); i++) {
                old.put(java.nio.ByteBuffer.wrap(keyList.get(i)), olds.get(i).join());
            }
            java.util.Set<java.nio.ByteBuffer> written = new java.util.HashSet<>();
            for (int i = 1; i < inv.argc(); i += 2) {
                java.nio.ByteBuffer k = java.nio.ByteBuffer.wrap(inv.arg(i));
                if (written.add(k)) {
                    inv.await(StringValues.writeArgument(inv, tr, db, k.array(), old.get(k), pairs.get(k), 0));
                }
                inv.keyspaceEvent(tr, STRING, "set", inv.arg(i));
            }
            return nx ? Reply.ONE : Reply.OK;
        });
    }

    private static CompletableFuture<Reply> append(Invocation inv, Transaction tr) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        byte[] tail = inv.arg(2);
        return keys(inv).getForWrite(tr, db, key, inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m != null && m.isObject()) {
                return appendToLarge(inv, tr, m);
            }
            CompletableFuture<byte[]> current = m == null ? CompletableFuture.completedFuture(new byte[0]) : StringValues.read(tr, inv.server().keys(), inv.db(), m);
            return current.thenApply(v -> {
                if ((long) v.length + tail.length > StringValues.MAX_STRING) {
                    throw new RedisException("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
                }
                StringValues.checkWritable((long) v.length + tail.length);
                byte[] joined = Arrays.copyOf(v, v.length + tail.length);
                System.arraycopy(tail, 0, joined, v.length, tail.length);
                inv.await(StringValues.write(tr, keys(inv), db, key, m, joined, m == null ? 0 : m.expireAtMillis()));
                inv.keyspaceEvent(tr, STRING, "append", key);
                return Reply.integer(joined.length);
            });
        });
    }

    /** APPEND to a large value: only its last chunk and the new ones are written. */
    private static CompletableFuture<Reply> appendToLarge(Invocation inv, Transaction tr, KeyMeta m) {
        byte[] tail = inv.arg(2);
        return StringValues.length(tr, keys(inv), inv.db(), m).thenCompose(length -> {
            if (length + tail.length > StringValues.MAX_STRING) {
                throw new RedisException("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
            }
            keys(inv).touch(tr, inv.db(), inv.arg(1));
            inv.keyspaceEvent(tr, STRING, "append", inv.arg(1));
            return StringValues.append(tr, keys(inv), inv.db(), m, tail).thenApply(Reply::integer);
        });
    }

    private static CompletableFuture<Reply> strlen(Invocation inv, Transaction tr) {
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now(), RedisType.STRING).thenCompose(m ->
                m == null ? CompletableFuture.completedFuture(Reply.ZERO) : StringValues.length(tr, keys(inv), inv.db(), m).thenApply(Reply::integer));
    }

    private static CompletableFuture<Reply> getrange(Invocation inv, Transaction tr) {
        long start = inv.longArg(2);
        long end = inv.longArg(3);
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null) {
                return CompletableFuture.completedFuture(Reply.bulk(new byte[0]));
            }
            return StringValues.length(tr, keys(inv), inv.db(), m).thenCompose(length -> {
                long[] span = span(length, start, end);
                return StringValues.read(tr, keys(inv), inv.db(), m, span[0], (int) (span[1] - span[0]))
                        .thenApply(Reply::bulk);
            });
        });
    }

    /** Redis 7.0's GETRANGE index rules. */
    static byte[] range(byte[] v, long start, long end) {
        long[] span = span(v.length, start, end);
        return Arrays.copyOfRange(v, (int) span[0], (int) span[1]);
    }

    /** The bytes {@code [from, to)} that GETRANGE {@code start end} gives of a value of {@code len} bytes. */
    private static long[] span(long len, long start, long end) {
        if (start < 0 && end < 0 && start > end) {
            return new long[] {0, 0};
        }
        if (start < 0) {
            start = len + start;
        }
        if (end < 0) {
            end = len + end;
        }
        if (start < 0) {
            start = 0;
        }
        if (end < 0) {
            end = 0;
        }
        if (end >= len) {
            end = len - 1;
        }
        if (start > end || len == 0) {
            return new long[] {0, 0};
        }
        return new long[] {start, end + 1};
    }

    private static CompletableFuture<Reply> setrange(Invocation inv, Transaction tr) {
        long offset = inv.longArg(2);
        byte[] patch = inv.arg(3);
        if (offset < 0) {
            throw new RedisException("ERR offset is out of range");
        }
        int db = inv.db();
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, db, key, inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null && patch.length == 0) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            // Written so that a huge offset cannot overflow past the check.
            if (patch.length > 0 && offset > StringValues.MAX_STRING - patch.length) {
                throw new RedisException("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
            }
            if ((m != null && m.isObject()) || offset + patch.length > StringValues.INLINE_MAX) {
                return setrangeLarge(inv, tr, m, offset, patch);
            }
            CompletableFuture<byte[]> current = m == null ? CompletableFuture.completedFuture(new byte[0]) : StringValues.read(tr, inv.server().keys(), inv.db(), m);
            return current.thenApply(v -> {
                if (patch.length == 0) {
                    return Reply.integer(v.length);
                }
                long length = Math.max(v.length, offset + patch.length);
                // Refused before the value is built, not after allocating it.
                StringValues.checkWritable(length);
                byte[] out = Arrays.copyOf(v, (int) length);
                System.arraycopy(patch, 0, out, (int) offset, patch.length);
                inv.await(StringValues.write(tr, keys(inv), db, key, m, out, m == null ? 0 : m.expireAtMillis()));
                inv.keyspaceEvent(tr, STRING, "setrange", key);
                return Reply.integer(out.length);
            });
        });
    }

    /**
     * SETRANGE on a large value, or one that becomes large: only the chunks the patch covers
     * are written (the zeros before it are not stored), so an offset of 500 MB costs what an
     * offset of 0 does.
     */
    private static CompletableFuture<Reply> setrangeLarge(Invocation inv, Transaction tr, KeyMeta m, long offset, byte[] patch) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        if (patch.length == 0) {
            return StringValues.length(tr, keys(inv), db, m).thenApply(Reply::integer);
        }
        StringValues.checkWritable(patch.length);
        return StringValues.asObject(tr, keys(inv), db, key, m).thenCompose(object -> {
            keys(inv).touch(tr, db, key);
            inv.keyspaceEvent(tr, STRING, "setrange", key);
            return StringValues.writeAt(tr, keys(inv), db, object, offset, patch).thenApply(Reply::integer);
        });
    }

    private static CompletableFuture<Reply> decrby(Invocation inv, Transaction tr) {
        long by = inv.longArg(2);
        if (by == Long.MIN_VALUE) {
            throw new RedisException("ERR decrement would overflow");
        }
        return incrBy(inv, tr, -by);
    }

    private static CompletableFuture<Reply> incrBy(Invocation inv, Transaction tr, long by) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, db, key, inv.now(), RedisType.STRING).thenCompose(m -> {
            CompletableFuture<byte[]> current = m == null ? CompletableFuture.completedFuture(null) : StringValues.read(tr, inv.server().keys(), inv.db(), m);
            return current.thenApply(v -> {
                long old = v == null ? 0 : Numbers.parseLong(v, RedisException.NOT_INTEGER);
                if ((by < 0 && old < 0 && by < Long.MIN_VALUE - old) || (by > 0 && old > 0 && by > Long.MAX_VALUE - old)) {
                    throw new RedisException("ERR increment or decrement would overflow");
                }
                long now = old + by;
                inv.await(StringValues.write(tr, keys(inv), db, key, m, Long.toString(now).getBytes(StandardCharsets.US_ASCII),
                        m == null ? 0 : m.expireAtMillis()));
                inv.keyspaceEvent(tr, STRING, "incrby", key);
                return Reply.integer(now);
            });
        });
    }

    /** INCRBYFLOAT: in x87 long double arithmetic and printing, as Redis computes it ({@link LongDouble}). */
    private static CompletableFuture<Reply> incrbyfloat(Invocation inv, Transaction tr) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, db, key, inv.now(), RedisType.STRING).thenCompose(m -> {
            CompletableFuture<byte[]> current = m == null ? CompletableFuture.completedFuture(null) : StringValues.read(tr, inv.server().keys(), inv.db(), m);
            return current.thenApply(v -> {
                // Redis checks the stored value first, then the increment.
                LongDouble old = v == null ? LongDouble.ZERO : LongDouble.parse(v);
                if (old == null) {
                    throw new RedisException(RedisException.NOT_FLOAT);
                }
                LongDouble by = LongDouble.parse(inv.arg(2));
                if (by == null) {
                    throw new RedisException(RedisException.NOT_FLOAT);
                }
                LongDouble sum = old.plus(by);
                if (sum == null || sum.isInfinite()) {
                    throw new RedisException("ERR increment would produce NaN or Infinity");
                }
                byte[] text = sum.toHumanString().getBytes(StandardCharsets.US_ASCII);
                inv.await(StringValues.write(tr, keys(inv), db, key, m, text, m == null ? 0 : m.expireAtMillis()));
                inv.keyspaceEvent(tr, STRING, "incrbyfloat", key);
                return Reply.bulk(text);
            });
        });
    }
}
