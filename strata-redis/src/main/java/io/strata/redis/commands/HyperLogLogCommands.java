package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.hll.HllSelfTest;
import io.strata.redis.hll.HyperLogLog;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * PFADD, PFCOUNT, PFMERGE, PFDEBUG and PFSELFTEST as Redis 7.0 answers them. A HyperLogLog is
 * an ordinary string key ({@link HyperLogLog} reads and edits its bytes), read and written
 * whole through {@link StringValues}, so expiry, WATCH stamps, keyspace events, MULTI/EXEC,
 * scripts, GET/SET and DUMP/RESTORE treat it as any string. Each command runs in one
 * transaction and finds every error before it writes, with one exception that is Redis's: a
 * PFADD that meets corrupt sparse opcodes part way through its elements keeps the registers it
 * raised before them and answers INVALIDOBJ (Redis edits the string in place and leaves those
 * edits; it publishes no event for them, nor does this server).
 *
 * <p>Writes follow Redis: PFADD writes only when a register changed (or it created the key)
 * and notifies {@code pfadd}; PFMERGE always writes its destination and notifies {@code pfadd};
 * PFCOUNT of one key stores the cardinality it computed in the value's cache (a change WATCH
 * sees, no event), though flagged read-only; PFDEBUG GETREG and TODENSE store the dense form.
 */
final class HyperLogLogCommands {
    private HyperLogLogCommands() {
    }

    static void register(CommandTable t) {
        t.add("pfadd", -2, "write denyoom fast", 1, 1, 1, "hyperloglog", DATA, HyperLogLogCommands::pfadd);
        t.add("pfcount", -2, "readonly may_replicate", 1, -1, 1, "hyperloglog", DATA, HyperLogLogCommands::pfcount);
        t.add("pfmerge", -2, "write denyoom", 1, -1, 1, "hyperloglog", DATA, HyperLogLogCommands::pfmerge);
        t.add("pfdebug", 3, "write denyoom admin", 2, 2, 1, "hyperloglog", DATA, HyperLogLogCommands::pfdebug);
        t.add("pfselftest", 1, "admin", 0, 0, 0, "hyperloglog", LOCAL, HyperLogLogCommands::pfselftest);
    }

    private static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    private static long sparseMaxBytes(Invocation inv) {
        return inv.server().settings().getLong("hll-sparse-max-bytes");
    }

    /** Stores {@code hll} as the key's string, keeping its expiry ({@code old} null: a new key). */
    private static void store(Invocation inv, Transaction tr, byte[] key, KeyMeta old, HyperLogLog hll) {
        inv.await(StringValues.write(tr, keys(inv), inv.db(), key, old, hll.toBytes(), old == null ? 0 : old.expireAtMillis()));
    }

    /** PFADD key [element ...]: 1 when the key was created or a register changed, else 0. */
    private static CompletableFuture<Reply> pfadd(Invocation inv, Transaction tr) {
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, inv.db(), key, inv.now(), RedisType.STRING).thenCompose(m ->
                BitCommands.valueOf(inv, tr, m).thenApply(value -> {
                    HyperLogLog hll = value == null ? HyperLogLog.create() : HyperLogLog.of(value);
                    boolean updated = value == null;
                    long sparseMax = sparseMaxBytes(inv);
                    for (int i = 2; i < inv.argc(); i++) {
                        try {
                            updated |= hll.add(inv.arg(i), sparseMax);
                        } catch (RedisException corrupt) {
                            // Redis edits the string in place and keeps what earlier elements
                            // raised; the failed element itself changed nothing.
                            if (updated) {
                                store(inv, tr, key, m, hll);
                            }
                            return Reply.error(corrupt.getMessage());
                        }
                    }
                    if (!updated) {
                        return Reply.ZERO;
                    }
                    hll.invalidateCache();
                    store(inv, tr, key, m, hll);
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STRING, "pfadd", key);
                    return Reply.ONE;
                }));
    }

    /** PFCOUNT key [key ...]: one key's cached or computed cardinality, or the union's of several. */
    private static CompletableFuture<Reply> pfcount(Invocation inv, Transaction tr) {
        if (inv.argc() > 2) {
            return sources(inv, tr, 1).thenApply(sources -> {
                byte[] union = new byte[HyperLogLog.REGISTERS];
                for (Source s : sources) {
                    s.mergeInto(union);
                }
                return Reply.integer(HyperLogLog.estimate(union));
            });
        }
        byte[] key = inv.arg(1);
        return keys(inv).get(tr, inv.db(), key, inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null) {
                return Invocation.done(Reply.ZERO);
            }
            return StringValues.read(tr, keys(inv), inv.db(), m).thenApply(value -> {
                HyperLogLog hll = HyperLogLog.of(value);
                HyperLogLog.Cardinality c = hll.cardinality();
                if (c.cacheUpdated()) {
                    // Redis writes the refreshed cache back (a change to the string) without an event.
                    store(inv, tr, key, m, hll);
                    inv.server().stats().changes.count(tr);
                }
                return Reply.integer(c.count());
            });
        });
    }

    /** PFMERGE destkey [sourcekey ...]: the destination (itself a source) becomes the union. */
    private static CompletableFuture<Reply> pfmerge(Invocation inv, Transaction tr) {
        byte[] dest = inv.arg(1);
        return sources(inv, tr, 1).thenCompose(sources -> keys(inv).getForWrite(tr, inv.db(), dest, inv.now()).thenApply(old -> {
            byte[] union = new byte[HyperLogLog.REGISTERS];
            boolean anyDense = false;
            for (Source s : sources) {
                anyDense |= s.mergeInto(union);
            }
            // The destination was read as the first source: absent there means absent here.
            byte[] current = sources.get(0).value();
            HyperLogLog target = current == null ? HyperLogLog.create() : HyperLogLog.of(current);
            if (anyDense) {
                target.toDense();
            }
            target.raiseAll(union, sparseMaxBytes(inv));
            target.invalidateCache();
            store(inv, tr, dest, old, target);
            // Redis signals a merge as the mass add it is.
            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STRING, "pfadd", dest);
            return Reply.OK;
        }));
    }

    /** One key read for a union: its metadata (null: absent) and, for a string, its value. */
    private record Source(KeyMeta meta, byte[] value) {
        /** Checks the key as Redis does in turn (type, then HLL) and merges it; whether it is dense. */
        boolean mergeInto(byte[] union) {
            if (meta == null) {
                return false;
            }
            KeyStore.requireType(meta, RedisType.STRING);
            HyperLogLog hll = HyperLogLog.of(value);
            hll.mergeInto(union);
            return hll.isDense();
        }
    }

    /** The keys from argument {@code from} on, read at once; checked in order by {@link Source#mergeInto}. */
    private static CompletableFuture<List<Source>> sources(Invocation inv, Transaction tr, int from) {
        List<CompletableFuture<Source>> reads = new ArrayList<>();
        for (int i = from; i < inv.argc(); i++) {
            reads.add(keys(inv).get(tr, inv.db(), inv.arg(i), inv.now()).thenCompose(m ->
                    m == null || m.type() != RedisType.STRING ? CompletableFuture.completedFuture(new Source(m, null))
                            : StringValues.read(tr, keys(inv), inv.db(), m).thenApply(v -> new Source(m, v))));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<Source> sources = new ArrayList<>(reads.size());
            reads.forEach(r -> sources.add(r.join()));
            return sources;
        });
    }

    /** PFDEBUG GETREG|DECODE|ENCODING|TODENSE key; the key is looked up and checked before the subcommand. */
    private static CompletableFuture<Reply> pfdebug(Invocation inv, Transaction tr) {
        byte[] key = inv.arg(2);
        return keys(inv).getForWrite(tr, inv.db(), key, inv.now()).thenCompose(m -> {
            if (m == null) {
                throw new RedisException("ERR The specified key does not exist");
            }
            KeyStore.requireType(m, RedisType.STRING);
            return StringValues.read(tr, keys(inv), inv.db(), m).thenApply(value -> {
                HyperLogLog hll = HyperLogLog.of(value);
                switch (inv.argString(1).toLowerCase(Locale.ROOT)) {
                    case "getreg": {
                        storeIfDensified(inv, tr, key, m, hll);
                        List<Reply> registers = new ArrayList<>(HyperLogLog.REGISTERS);
                        for (int r : hll.denseRegisters()) {
                            registers.add(Reply.integer(r));
                        }
                        return Reply.array(registers);
                    }
                    case "decode":
                        if (hll.isDense()) {
                            throw new RedisException("ERR HLL encoding is not sparse");
                        }
                        return Reply.bulk(hll.decodeSparse());
                    case "encoding":
                        return Reply.simple(hll.isDense() ? "dense" : "sparse");
                    case "todense":
                        return storeIfDensified(inv, tr, key, m, hll) ? Reply.ONE : Reply.ZERO;
                    default:
                        throw new RedisException("ERR Unknown PFDEBUG subcommand '" + cString(inv.arg(1)) + "'");
                }
            });
        });
    }

    /**
     * Makes a sparse HLL dense and stores it; whether it was sparse. Redis counts the change
     * but publishes no event for it (nor does it here); the write moves the key's stamp, as
     * every write here does, where Redis leaves WATCH undisturbed.
     */
    private static boolean storeIfDensified(Invocation inv, Transaction tr, byte[] key, KeyMeta m, HyperLogLog hll) {
        if (!hll.toDense()) {
            return false;
        }
        store(inv, tr, key, m, hll);
        inv.server().stats().changes.count(tr);
        return true;
    }

    /** An argument as Redis's {@code %s} prints it: up to its first zero byte. */
    private static String cString(byte[] arg) {
        int end = 0;
        while (end < arg.length && arg[end] != 0) {
            end++;
        }
        return new String(arg, 0, end, StandardCharsets.UTF_8);
    }

    /** PFSELFTEST: runs off the connection's thread, since it takes seconds. */
    private static CompletableFuture<Reply> pfselftest(Invocation inv, Transaction tr) {
        long sparseMax = sparseMaxBytes(inv);
        return CompletableFuture.supplyAsync(() -> {
            String failure = HllSelfTest.run(sparseMax, ThreadLocalRandom.current());
            if (failure != null) {
                throw new RedisException(failure);
            }
            return Reply.OK;
        });
    }
}
