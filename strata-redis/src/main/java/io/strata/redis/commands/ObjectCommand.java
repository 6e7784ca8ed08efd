package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * OBJECT ENCODING|FREQ|IDLETIME|REFCOUNT|HELP, answered as Redis 7.0 would for what this
 * server can know:
 * <ul>
 *   <li>ENCODING of a string follows Redis's rule for a value as SET stores it: {@code int}
 *       for a canonical 64-bit integer, {@code embstr} up to 44 bytes, else {@code raw}.
 *       (Redis also reports {@code raw} for a short string changed in place by APPEND,
 *       SETRANGE, the bit commands or the HyperLogLog commands; this server does not remember
 *       how a value was made.)
 *       Collections answer what their type reports ({@link CollectionTypes}).</li>
 *   <li>REFCOUNT is 2147483647 for the integers 0..9999 Redis shares, else 1.</li>
 *   <li>IDLETIME is the seconds since a command of this process last accessed the key, from
 *       {@link io.strata.redis.command.AccessClock} (approximate, as Redis's LRU clock is:
 *       kept in memory, not in the database, so every read stays a read).</li>
 *   <li>FREQ is the key's LFU counter while an LFU maxmemory policy is selected ({@code AccessClock}),
 *       Redis's error otherwise; IDLETIME is Redis's error while one is.</li>
 * </ul>
 */
final class ObjectCommand {
    private static final long SHARED_INTEGERS = 10_000;
    private static final long SHARED_REFCOUNT = Integer.MAX_VALUE;
    private static final int EMBSTR_LIMIT = 44;

    private ObjectCommand() {
    }

    static void register(CommandTable t) {
        t.addContainer("object");
        t.addSubcommand("object", "help", 2, "loading stale", 0, 0, 0, "keyspace", DATA, ObjectCommand::object);
        for (String sub : new String[] {"encoding", "freq", "idletime", "refcount"}) {
            t.addSubcommand("object", sub, 3, "readonly", 2, 2, 1, "keyspace", DATA, ObjectCommand::object);
        }
    }

    private static CompletableFuture<Reply> object(Invocation inv, Transaction tr) {
        String sub = inv.argString(1).toLowerCase(Locale.ROOT);
        int arity;
        switch (sub) {
            case "help": arity = 2; break;
            case "encoding": case "freq": case "idletime": case "refcount": arity = 3; break;
            default:
                throw new RedisException("ERR unknown subcommand '" + inv.argText(1, 128) + "'. Try OBJECT HELP.");
        }
        if (inv.argc() != arity) {
            throw new RedisException("ERR wrong number of arguments for 'object|" + sub + "' command");
        }
        if (sub.equals("help")) {
            return Invocation.done(help());
        }
        return inv.server().keys().peek(tr, inv.db(), inv.arg(2), inv.now()).thenCompose(m -> {
            if (m == null) {
                return Invocation.done(Reply.NULL_BULK);
            }
            switch (sub) {
                case "encoding":
                    return encoding(tr, inv, m).thenApply(Reply::bulk);
                case "refcount":
                    if (m.type() != RedisType.STRING || m.isObject()) {
                        return Invocation.done(Reply.ONE);
                    }
                    return StringValues.read(tr, inv.server().keys(), inv.db(), m).thenApply(v -> Reply.integer(isShared(v) ? SHARED_REFCOUNT : 1));
                case "idletime":
                    if (inv.server().accessClock().countsFrequency()) {
                        throw new RedisException("ERR An LFU maxmemory policy is selected, idle time not tracked. "
                                + "Please note that when switching between policies at runtime LRU and LFU data will take "
                                + "some time to adjust.");
                    }
                    return Invocation.done(Reply.integer(
                            inv.server().accessClock().idleSeconds(inv.server().keys(), inv.db(), inv.arg(2), inv.now())));
                default:
                    if (!inv.server().accessClock().countsFrequency()) {
                        throw new RedisException("ERR An LFU maxmemory policy is not selected, access frequency not tracked. "
                                + "Please note that when switching between policies at runtime LRU and LFU data will take "
                                + "some time to adjust.");
                    }
                    return Invocation.done(Reply.integer(
                            inv.server().accessClock().frequency(inv.server().keys(), inv.db(), inv.arg(2), inv.now())));
            }
        });
    }

    private static CompletableFuture<String> encoding(Transaction tr, Invocation inv, KeyMeta m) {
        if (m.type() != RedisType.STRING) {
            return CollectionTypes.encoding(tr, inv.server().keys(), inv.db(), m);
        }
        if (m.isObject()) {
            return CompletableFuture.completedFuture("raw");
        }
        return StringValues.read(tr, inv.server().keys(), inv.db(), m).thenApply(ObjectCommand::stringEncoding);
    }

    /** Redis's {@code tryObjectEncoding} for a value as SET stores it. */
    static String stringEncoding(byte[] v) {
        if (v.length <= 20 && Numbers.isLong(v)) {
            return "int";
        }
        return v.length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    private static boolean isShared(byte[] v) {
        if (v.length > 20 || !Numbers.isLong(v)) {
            return false;
        }
        long n = Numbers.parseLong(v, RedisException.NOT_INTEGER);
        return n >= 0 && n < SHARED_INTEGERS;
    }

    private static Reply help() {
        String[] lines = {
            "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "ENCODING <key>",
            "    Return the kind of internal representation used in order to store the value",
            "    associated with a <key>.",
            "FREQ <key>",
            "    Return the access frequency index of the <key>. The returned integer is",
            "    proportional to the logarithm of the recent access frequency of the key.",
            "IDLETIME <key>",
            "    Return the idle time of the <key>, that is the approximated number of",
            "    seconds elapsed since the last access to the key.",
            "REFCOUNT <key>",
            "    Return the number of references of the value associated with the specified",
            "    <key>.",
            "HELP",
            "    Prints this help.",
        };
        return Reply.lines(lines);
    }
}
