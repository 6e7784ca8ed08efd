package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.config.NotifyKeyspaceEvents.SET;
import static io.strata.redis.commands.SetValues.getForWrite;
import static io.strata.redis.commands.SetValues.ids;
import static io.strata.redis.commands.SetValues.keys;

import com.apple.foundationdb.Transaction;
import io.strata.layers.set.RoaringSet;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * The set commands of Redis 7.0. This class registers them all and holds the ones that
 * change or test membership (SADD, SREM, SMOVE, SCARD, SISMEMBER, SMISMEMBER, SMEMBERS);
 * the algebra is in {@link SetAlgebraCommands}, the random picks in {@link SetRandomCommands},
 * SSCAN in {@link SetScan}. How a set is stored: {@link SetValues}.
 *
 * <p>Each command runs in one transaction and finds every error (wrong type, a member too
 * long to intern, a bad argument) before its first write, so that inside MULTI/EXEC an error
 * leaves nothing behind. Members are interned only once the key is known to be a set (or
 * absent): a refused SADD interns nothing.
 *
 * <h2>Where this differs from Redis 7.0</h2>
 * <ul>
 *   <li>Members longer than the interner's limit (about 9,980 bytes) are refused
 *       ({@code ERR set members longer than N bytes are not supported}).</li>
 *   <li>Interned members are never freed (see {@code KeyStore.interner}).</li>
 *   <li>Replies list members in id order (roughly first-seen order), not hash order; there
 *       is no intset/listpack/hashtable encoding to report.</li>
 *   <li>SSCAN returns every member present for the whole scan exactly once and honours
 *       COUNT for small sets too (Redis returns a small set whole).</li>
 *   <li>A negative SRANDMEMBER count above {@link SetRandomCommands#MAX_REPEATED} is
 *       refused; Redis would try to send it.</li>
 *   <li>FoundationDB's transaction limits apply: a SADD whose new members' bytes approach
 *       10 MB, or a STORE whose result's containers exceed about 9 MB, fails with a
 *       database error (2101); a command whose reads take over 5 seconds fails (1007).</li>
 * </ul>
 */
final class SetCommands {
    private SetCommands() {
    }

    static void register(CommandTable t) {
        t.add("sadd", -3, "write denyoom fast", 1, 1, 1, "set", DATA, SetCommands::sadd);
        // More members than one transaction can intern are interned before it runs.
        t.stagesObjectOf("sadd", 2, PreInterning::stageSadd);
        t.add("srem", -3, "write fast", 1, 1, 1, "set", DATA, SetCommands::srem);
        t.add("smove", 4, "write fast", 1, 2, 1, "set", DATA, SetCommands::smove);
        t.add("scard", 2, "readonly fast", 1, 1, 1, "set", DATA, SetCommands::scard);
        t.add("sismember", 3, "readonly fast", 1, 1, 1, "set", DATA, SetCommands::sismember);
        t.add("smismember", -3, "readonly fast", 1, 1, 1, "set", DATA, SetCommands::smismember);
        t.add("smembers", 2, "readonly", 1, 1, 1, "set", DATA, SetCommands::smembers);
        t.add("sinter", -2, "readonly", 1, -1, 1, "set", DATA, SetAlgebraCommands::sinter);
        t.add("sintercard", -3, "readonly movable_keys", 0, 0, 0, "set", DATA, SetAlgebraCommands::sintercard);
        t.add("sunion", -2, "readonly", 1, -1, 1, "set", DATA, SetAlgebraCommands::sunion);
        t.add("sdiff", -2, "readonly", 1, -1, 1, "set", DATA, SetAlgebraCommands::sdiff);
        t.add("sinterstore", -3, "write denyoom", 1, -1, 1, "set", DATA, SetAlgebraCommands::sinterstore);
        t.add("sunionstore", -3, "write denyoom", 1, -1, 1, "set", DATA, SetAlgebraCommands::sunionstore);
        t.add("sdiffstore", -3, "write denyoom", 1, -1, 1, "set", DATA, SetAlgebraCommands::sdiffstore);
        t.add("srandmember", -2, "readonly", 1, 1, 1, "set", DATA, SetRandomCommands::srandmember);
        t.add("spop", -2, "write fast", 1, 1, 1, "set", DATA, SetRandomCommands::spop);
        t.add("sscan", -3, "readonly", 1, 1, 1, "set", DATA, SetScan::sscan);
    }

    /** SADD key member [member ...]: the number of members that were new. */
    private static CompletableFuture<Reply> sadd(Invocation inv, Transaction tr) {
        List<byte[]> members = SetValues.membersToAdd(inv, 2);
        byte[] key = inv.arg(1);
        return getForWrite(inv, tr, key).thenCompose(meta ->
                SetValues.interner(inv).internAll(tr, members).thenCompose(memberIds ->
                        addIds(inv, tr, key, meta, memberIds)).thenApply(added -> {
                            if (added > 0) {
                                inv.keyspaceEvent(tr, SET, "sadd", key);
                            }
                            return Reply.integer(added);
                        }));
    }

    /**
     * Adds {@code memberIds} to the set at {@code key} ({@code meta}, or null to create it);
     * completes with how many were new. Creating the set writes its metadata; adding to an
     * existing one moves its WATCH stamp when something was added.
     */
    static CompletableFuture<Long> addIds(Invocation inv, Transaction tr, byte[] key, KeyMeta meta, long... memberIds) {
        KeyStore keys = keys(inv);
        if (meta != null) {
            return ids(inv, meta).addAll(tr, memberIds).thenApply(added -> {
                if (added > 0) {
                    keys.touch(tr, inv.db(), key);
                }
                return added;
            });
        }
        return keys.newObjectId(tr).thenCompose(objectId -> {
            KeyMeta created = SetValues.newMeta(objectId);
            return ids(inv, created).addAll(tr, memberIds).thenApply(added -> {
                keys.put(tr, inv.db(), key, null, created);
                return added;
            });
        });
    }

    /** SREM key member [member ...]: the number of members removed; the key goes when emptied. */
    private static CompletableFuture<Reply> srem(Invocation inv, Transaction tr) {
        byte[] key = inv.arg(1);
        List<byte[]> members = argsFrom(inv, 2);
        return getForWrite(inv, tr, key).thenCompose(meta -> {
            if (meta == null) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            return SetValues.findIds(inv, tr, members).thenCompose(found -> {
                long[] present = found.stream().filter(OptionalLong::isPresent).mapToLong(OptionalLong::getAsLong).toArray();
                return ids(inv, meta).removeAll(tr, present).thenCompose(removed -> removed == 0
                        ? CompletableFuture.completedFuture(Reply.ZERO)
                        : SetValues.afterRemoval(inv, tr, key, meta, "srem").thenApply(ignored -> Reply.integer(removed)));
            });
        });
    }

    /**
     * SMOVE source destination member: 1 if moved (or, with source = destination, if it is a
     * member), else 0. A missing source answers 0 before the destination's type is checked,
     * as in Redis.
     */
    private static CompletableFuture<Reply> smove(Invocation inv, Transaction tr) {
        byte[] from = inv.arg(1);
        byte[] to = inv.arg(2);
        byte[] member = inv.arg(3);
        KeyStore keys = keys(inv);
        return keys.getForWrite(tr, inv.db(), from, inv.now()).thenCompose(source ->
                keys.getForWrite(tr, inv.db(), to, inv.now()).thenCompose(target -> {
                    if (source == null) {
                        return CompletableFuture.completedFuture(Reply.ZERO);
                    }
                    KeyStore.requireType(source, RedisType.SET);
                    KeyStore.requireType(target, RedisType.SET);
                    return SetValues.findIds(inv, tr, List.of(member)).thenCompose(found -> {
                        if (found.get(0).isEmpty()) {
                            return CompletableFuture.completedFuture(Reply.ZERO);
                        }
                        long id = found.get(0).getAsLong();
                        RoaringSet sourceIds = ids(inv, source);
                        if (Arrays.equals(from, to)) {
                            return sourceIds.contains(tr, id).thenApply(in -> in ? Reply.ONE : Reply.ZERO);
                        }
                        return sourceIds.remove(tr, id).thenCompose(removed -> {
                            if (!removed) {
                                return CompletableFuture.completedFuture(Reply.ZERO);
                            }
                            return SetValues.afterRemoval(inv, tr, from, source, "srem")
                                    .thenCompose(ignored -> addIds(inv, tr, to, target, id))
                                    .thenApply(added -> {
                                        if (added > 0) {
                                            inv.keyspaceEvent(tr, SET, "sadd", to);
                                        }
                                        return Reply.ONE;
                                    });
                        });
                    });
                }));
    }

    private static CompletableFuture<Reply> scard(Invocation inv, Transaction tr) {
        return SetValues.get(inv, tr, inv.arg(1)).thenCompose(meta -> meta == null
                ? CompletableFuture.completedFuture(Reply.ZERO)
                : ids(inv, meta).cardinality(tr).thenApply(Reply::integer));
    }

    private static CompletableFuture<Reply> sismember(Invocation inv, Transaction tr) {
        return membership(inv, tr, List.of(inv.arg(2))).thenApply(flags -> flags.get(0));
    }

    /** SMISMEMBER key member [member ...]: 1 or 0 per member; a missing key is an empty set. */
    private static CompletableFuture<Reply> smismember(Invocation inv, Transaction tr) {
        return membership(inv, tr, argsFrom(inv, 2)).thenApply(Reply::array);
    }

    /** 1 or 0 for each of {@code members}: whether the set at argument 1 holds it. */
    private static CompletableFuture<List<Reply>> membership(Invocation inv, Transaction tr, List<byte[]> members) {
        return SetValues.get(inv, tr, inv.arg(1)).thenCompose(meta -> {
            if (meta == null) {
                return CompletableFuture.completedFuture(zeros(members.size()));
            }
            RoaringSet set = ids(inv, meta);
            return SetValues.findIds(inv, tr, members).thenCompose(found -> {
                List<CompletableFuture<Boolean>> in = new ArrayList<>(found.size());
                for (OptionalLong id : found) {
                    in.add(id.isPresent() ? set.contains(tr, id.getAsLong()) : CompletableFuture.completedFuture(false));
                }
                return CompletableFuture.allOf(in.toArray(new CompletableFuture[0])).thenApply(ignored -> {
                    List<Reply> flags = new ArrayList<>(in.size());
                    for (CompletableFuture<Boolean> f : in) {
                        flags.add(f.join() ? Reply.ONE : Reply.ZERO);
                    }
                    return flags;
                });
            });
        });
    }

    private static CompletableFuture<Reply> smembers(Invocation inv, Transaction tr) {
        return SetValues.get(inv, tr, inv.arg(1)).thenCompose(meta -> meta == null
                ? CompletableFuture.completedFuture(Reply.set(List.of()))
                : ids(inv, meta).toBitmap(tr).thenCompose(bitmap -> SetValues.setReply(inv, tr, bitmap)));
    }

    static List<byte[]> argsFrom(Invocation inv, int from) {
        List<byte[]> out = new ArrayList<>(inv.argc() - from);
        for (int i = from; i < inv.argc(); i++) {
            out.add(inv.arg(i));
        }
        return out;
    }

    private static List<Reply> zeros(int n) {
        List<Reply> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Reply.ZERO);
        }
        return out;
    }
}
