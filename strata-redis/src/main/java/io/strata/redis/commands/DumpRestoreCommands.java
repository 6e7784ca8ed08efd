package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.AccessClock;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import io.strata.redis.rdb.DumpPayload;
import io.strata.redis.rdb.RdbDecoder;
import io.strata.redis.rdb.RdbEncoder;
import io.strata.redis.rdb.RdbFormatException;
import io.strata.redis.rdb.RdbValue;
import io.strata.redis.rdb.UnsupportedValueException;

import java.util.concurrent.CompletableFuture;

/**
 * DUMP key and RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME s] [FREQ f], with
 * Redis 7.0's payload format ({@code io.strata.redis.rdb}): a payload DUMPed by Redis 7.0
 * RESTOREs here and one DUMPed here RESTOREs on Redis 7.0.
 *
 * <p>RESTORE checks in Redis's order: the options (syntax, IDLETIME, FREQ), then that the key
 * is free unless REPLACE ({@code BUSYKEY}), the TTL, the payload's version and checksum, and
 * the value; all of them, and whether this server can store the value
 * ({@link RestoredValues#check}), before its first write, so that a refused RESTORE inside
 * MULTI/EXEC leaves nothing behind. A TTL already in the past (relative, or ABSTTL) creates
 * nothing and, with REPLACE, deletes the key, as in Redis.
 *
 * <p>IDLETIME sets the restored key's access time for OBJECT IDLETIME ({@code AccessClock});
 * FREQ sets its access counter while an LFU maxmemory policy is selected, and is ignored
 * otherwise, as in Redis. {@code sanitize-dump-payload} changes nothing:
 * every payload is decoded and checked entry by entry (what Redis calls deep sanitization),
 * because its entries are copied into this server's own layout.
 *
 * <p>Concurrency: both run in one transaction. DUMP reads the key serializably; RESTORE reads
 * the key (existence for BUSYKEY, then the value it replaces) serializably and writes the new
 * value under a new object id, so a concurrent change of the key conflicts and one retries.
 */
final class DumpRestoreCommands {
    private DumpRestoreCommands() {
    }

    static void register(CommandTable t) {
        t.add("dump", 2, "readonly", 1, 1, 1, "keyspace", DATA, DumpRestoreCommands::dump);
        t.add("restore", -4, "write denyoom", 1, 1, 1, "keyspace dangerous", DATA, DumpRestoreCommands::restore);
        // A payload holding a string too large for one transaction is staged before RESTORE runs.
        t.stagesValueOf("restore", 3, payload -> decode(payload) instanceof RdbValue.StringValue s ? s.value() : null);
        // So is a list, set or hash too large for it (StagedCollections).
        t.stagesObjectOf("restore", 3, (server, args, db) -> StagedCollections.stageIfLarge(server, args[3], db));
    }

    private static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    private static CompletableFuture<Reply> dump(Invocation inv, Transaction tr) {
        KeyStore keys = keys(inv);
        return keys.get(tr, inv.db(), inv.arg(1), inv.now()).thenCompose(meta -> meta == null
                ? Invocation.done(Reply.NULL_BULK)
                : DumpedValues.read(tr, keys, inv.db(), meta).thenApply(v -> Reply.bulk(RdbEncoder.encode(v))));
    }

    /** RESTORE's options after the payload. */
    /** {@code idleSeconds}: IDLETIME's value, or -1 without it. */
    private record Options(boolean replace, boolean absTtl, long idleSeconds, int frequency) {
    }

    private static Options options(Invocation inv) {
        boolean replace = false;
        boolean absTtl = false;
        boolean idle = false;
        long idleSeconds = -1;
        boolean freq = false;
        int frequency = -1;
        for (int j = 4; j < inv.argc(); j++) {
            String opt = inv.option(j);
            boolean hasValue = j + 1 < inv.argc();
            if (opt.equals("REPLACE")) {
                replace = true;
            } else if (opt.equals("ABSTTL")) {
                absTtl = true;
            } else if (opt.equals("IDLETIME") && hasValue && !freq) {
                idleSeconds = inv.longArg(++j);
                if (idleSeconds < 0) {
                    throw new RedisException("ERR Invalid IDLETIME value, must be >= 0");
                }
                idle = true;
            } else if (opt.equals("FREQ") && hasValue && !idle) {
                long f = inv.longArg(++j);
                if (f < 0 || f > 255) {
                    throw new RedisException("ERR Invalid FREQ value, must be >= 0 and <= 255");
                }
                frequency = (int) f;
                freq = true;
            } else {
                throw RedisException.syntax();
            }
        }
        return new Options(replace, absTtl, idleSeconds, frequency);
    }

    private static CompletableFuture<Reply> restore(Invocation inv, Transaction tr) {
        Options options = options(inv);
        KeyStore keys = keys(inv);
        int db = inv.db();
        byte[] key = inv.arg(1);
        long now = inv.now();
        return keys.get(tr, db, key, now).thenCompose(existing -> {
            if (existing != null && !options.replace()) {
                throw new RedisException("BUSYKEY Target key name already exists.");
            }
            long ttl = inv.longArg(2);
            if (ttl < 0) {
                throw new RedisException("ERR Invalid TTL value, must be >= 0");
            }
            RdbValue value = decode(inv.arg(3));
            // A value too large for this transaction was staged from the payload before the command ran.
            LargeValues.Staged staged = inv.server().largeValues().stagedFor(inv.arg(3));
            if (staged == null) {
                RestoredValues.check(keys, db, value);
            }
            // As Redis: a relative TTL is added to the clock, wrapping as C's long long would.
            long expireAt = ttl != 0 && !options.absTtl() ? ttl + now : ttl;
            return keys.getForWrite(tr, db, key, now).thenCompose(old -> {
                if (expireAt != 0 && expireAt <= now) {
                    if (old != null) {
                        keys.delete(tr, db, key, old);
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", key);
                    }
                    return Invocation.done(Reply.OK);
                }
                CompletableFuture<Void> written;
                if (staged == null) {
                    written = RestoredValues.write(tr, keys, db, key, old, value, expireAt, HashKeys.smallLimits(inv));
                } else if (value instanceof RdbValue.StringValue) {
                    written = StringValues.writeArgument(inv, tr, db, key, old, inv.arg(3), expireAt);
                } else {
                    written = StagedCollections.claim(tr, keys, inv.server().largeValues(), staged, db, key, old, value, expireAt);
                }
                return written.thenApply(ignored -> {
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "restore", key);
                    // RESTORE is the one command that sets its key's access time (AccessClock#touches).
                    AccessClock clock = inv.server().accessClock();
                    if (options.idleSeconds() >= 0) {
                        clock.idleSince(keys, db, key, now, options.idleSeconds());
                    } else {
                        clock.accessed(keys, db, key, now);
                    }
                    if (options.frequency() >= 0 && clock.countsFrequency()) {
                        clock.frequencyIs(keys, db, key, now, options.frequency());
                    }
                    return Reply.OK;
                });
            });
        });
    }

    /** The value a DUMP payload holds; Redis's errors for a damaged or unsupported one. */
    static RdbValue decode(byte[] payload) {
        if (!DumpPayload.verify(payload)) {
            throw new RedisException("ERR DUMP payload version or checksum are wrong");
        }
        try {
            return RdbDecoder.decode(payload);
        } catch (RdbFormatException e) {
            throw new RedisException("ERR Bad data format");
        } catch (UnsupportedValueException e) {
            throw new RedisException("ERR Bad data format: " + e.getMessage());
        }
    }
}
