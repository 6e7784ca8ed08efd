package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.Invocation.done;

import com.apple.foundationdb.Transaction;
import io.strata.redis.blocking.BlockingAttempt;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The list commands of Redis 7.0 that do not block (the blocking ones are in
 * {@link BlockingListCommands}). A list's layout is described in {@link ListValue} and
 * {@link ListElements}. Each command runs in one transaction and checks its arguments and its
 * keys' types before its first write, in the order Redis checks them, so that it fails with
 * Redis's error and, inside MULTI/EXEC, without partial writes.
 */
final class ListCommands {
    private ListCommands() {
    }

    static void register(CommandTable t) {
        t.add("lpush", -3, "write denyoom fast", 1, 1, 1, "list", DATA, (inv, tr) -> push(inv, tr, true, false));
        t.add("rpush", -3, "write denyoom fast", 1, 1, 1, "list", DATA, (inv, tr) -> push(inv, tr, false, false));
        t.add("lpushx", -3, "write denyoom fast", 1, 1, 1, "list", DATA, (inv, tr) -> push(inv, tr, true, true));
        t.add("rpushx", -3, "write denyoom fast", 1, 1, 1, "list", DATA, (inv, tr) -> push(inv, tr, false, true));
        t.add("lpop", -2, "write fast", 1, 1, 1, "list", DATA, (inv, tr) -> pop(inv, tr, true));
        t.add("rpop", -2, "write fast", 1, 1, 1, "list", DATA, (inv, tr) -> pop(inv, tr, false));
        t.add("llen", 2, "readonly fast", 1, 1, 1, "list", DATA, ListCommands::llen);
        t.add("lindex", 3, "readonly", 1, 1, 1, "list", DATA, ListCommands::lindex);
        t.add("lset", 4, "write denyoom", 1, 1, 1, "list", DATA, ListCommands::lset);
        t.add("lrange", 4, "readonly", 1, 1, 1, "list", DATA, ListCommands::lrange);
        t.add("linsert", 5, "write denyoom", 1, 1, 1, "list", DATA, ListCommands::linsert);
        t.add("lrem", 4, "write", 1, 1, 1, "list", DATA, ListCommands::lrem);
        t.add("ltrim", 4, "write", 1, 1, 1, "list", DATA, ListCommands::ltrim);
        t.add("lpos", -3, "readonly", 1, 1, 1, "list", DATA, ListCommands::lpos);
        t.add("lmove", 5, "write denyoom", 1, 2, 1, "list", DATA, (inv, tr) ->
                lmove(inv, tr, side(inv, 3), side(inv, 4)).thenApply(v -> v == null ? Reply.NULL_BULK : Reply.bulk(v)));
        t.add("rpoplpush", 3, "write denyoom", 1, 2, 1, "list", DATA, (inv, tr) ->
                lmove(inv, tr, false, true).thenApply(v -> v == null ? Reply.NULL_BULK : Reply.bulk(v)));
        t.add("lmpop", -4, "write movable_keys", 0, 0, 0, "list", DATA, ListCommands::lmpop);
    }

    private static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    /** LPUSH/RPUSH/LPUSHX/RPUSHX key element [element ...]: the new length; 0 for an absent key with X. */
    private static CompletableFuture<Reply> push(Invocation inv, Transaction tr, boolean left, boolean onlyIfExists) {
        byte[] key = inv.arg(1);
        return ListValue.forWrite(tr, keys(inv), inv.db(), key, inv.now()).thenCompose(list -> {
            if (list == null && onlyIfExists) {
                return done(Reply.ZERO);
            }
            CompletableFuture<ListValue> target = list != null ? CompletableFuture.completedFuture(list)
                    : ListValue.create(tr, keys(inv), inv.db(), key);
            return target.thenApply(l -> {
                for (int i = 2; i < inv.argc(); i++) {
                    l.push(left, inv.arg(i));
                }
                l.save(left ? "lpush" : "rpush");
                return Reply.integer(l.length());
            });
        });
    }

    /** LPOP/RPOP key [count]: an element (nil if none), or with a count an array (nil if the key is absent). */
    private static CompletableFuture<Reply> pop(Invocation inv, Transaction tr, boolean left) {
        if (inv.argc() > 3) {
            throw new RedisException("ERR wrong number of arguments for '" + inv.spec().name() + "' command");
        }
        boolean hasCount = inv.argc() == 3;
        long count = hasCount ? nonNegative(inv, 2, "ERR value is out of range, must be positive") : 1;
        return ListValue.forWrite(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenCompose(list -> {
            if (list == null) {
                return done(hasCount ? Reply.NULL_ARRAY : Reply.NULL_BULK);
            }
            if (hasCount && count == 0) {
                return done(Reply.EMPTY_ARRAY);
            }
            return list.pop(left, count).thenApply(values -> {
                list.save(left ? "lpop" : "rpop");
                return hasCount ? Reply.bulks(values) : Reply.bulk(values.get(0));
            });
        });
    }

    private static CompletableFuture<Reply> llen(Invocation inv, Transaction tr) {
        return ListValue.read(tr, keys(inv), inv.db(), inv.arg(1), inv.now())
                .thenApply(list -> Reply.integer(list == null ? 0 : list.length()));
    }

    private static CompletableFuture<Reply> lindex(Invocation inv, Transaction tr) {
        return ListValue.read(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenCompose(list -> {
            if (list == null) {
                return done(Reply.NULL_BULK);
            }
            long index = inv.longArg(2);
            long i = index < 0 ? list.length() + index : index;
            if (i < 0 || i >= list.length()) {
                return done(Reply.NULL_BULK);
            }
            return list.get(i).thenApply(Reply::bulk);
        });
    }

    private static CompletableFuture<Reply> lset(Invocation inv, Transaction tr) {
        return ListValue.forWrite(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenApply(list -> {
            if (list == null) {
                throw new RedisException("ERR no such key");
            }
            long index = inv.longArg(2);
            long i = index < 0 ? list.length() + index : index;
            if (i < 0 || i >= list.length()) {
                throw new RedisException("ERR index out of range");
            }
            list.set(i, inv.arg(3));
            list.save("lset");
            return Reply.OK;
        });
    }

    private static CompletableFuture<Reply> lrange(Invocation inv, Transaction tr) {
        long start = inv.longArg(2);
        long end = inv.longArg(3);
        return ListValue.read(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenCompose(list -> {
            if (list == null) {
                return done(Reply.EMPTY_ARRAY);
            }
            long[] r = clamp(start, end, list.length());
            if (r == null) {
                return done(Reply.EMPTY_ARRAY);
            }
            return list.range(r[0], r[1], false).thenApply(Reply::bulks);
        });
    }

    /**
     * Redis's conversion of a start/end pair of indexes (negative from the tail) into a range of
     * {@code [from, to]} within a list of {@code length}; null when it is empty.
     */
    static long[] clamp(long start, long end, long length) {
        if (start < 0) {
            start = length + start;
        }
        if (end < 0) {
            end = length + end;
        }
        if (start < 0) {
            start = 0;
        }
        if (start > end || start >= length) {
            return null;
        }
        return new long[] {start, Math.min(end, length - 1)};
    }

    /** LINSERT key BEFORE|AFTER pivot element: the new length, -1 without the pivot, 0 without the key. */
    private static CompletableFuture<Reply> linsert(Invocation inv, Transaction tr) {
        String where = inv.option(2);
        if (!where.equals("BEFORE") && !where.equals("AFTER")) {
            throw RedisException.syntax();
        }
        boolean after = where.equals("AFTER");
        byte[] pivot = inv.arg(3);
        return ListValue.forWrite(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenCompose(list -> {
            if (list == null) {
                return done(Reply.ZERO);
            }
            long[] found = {-1};
            return list.scan(false, (index, value) -> {
                if (Arrays.equals(value, pivot)) {
                    found[0] = index;
                    return false;
                }
                return true;
            }).thenCompose(ignored -> {
                if (found[0] < 0) {
                    return done(Reply.integer(-1));
                }
                return list.insert(after ? found[0] + 1 : found[0], inv.arg(4)).thenApply(v -> {
                    list.save("linsert");
                    return Reply.integer(list.length());
                });
            });
        });
    }

    /** LREM key count element: removes up to |count| matches from the head (or the tail if count &lt; 0; all if 0). */
    private static CompletableFuture<Reply> lrem(Invocation inv, Transaction tr) {
        long count = inv.longArg(2);
        byte[] element = inv.arg(3);
        return ListValue.forWrite(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenCompose(list -> {
            if (list == null) {
                return done(Reply.ZERO);
            }
            boolean fromTail = count < 0;
            long limit = count == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(count);
            List<Long> matches = new ArrayList<>();
            return list.scan(fromTail, (index, value) -> {
                if (Arrays.equals(value, element)) {
                    matches.add(index);
                    return limit == 0 || matches.size() < limit;
                }
                return true;
            }).thenCompose(ignored -> {
                if (matches.isEmpty()) {
                    return done(Reply.ZERO);
                }
                if (fromTail) {
                    java.util.Collections.reverse(matches);
                }
                return list.remove(matches).thenApply(v -> {
                    list.save("lrem");
                    return Reply.integer(matches.size());
                });
            });
        });
    }

    private static CompletableFuture<Reply> ltrim(Invocation inv, Transaction tr) {
        long start = inv.longArg(2);
        long end = inv.longArg(3);
        return ListValue.forWrite(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenApply(list -> {
            if (list == null) {
                return Reply.OK;
            }
            long[] r = clamp(start, end, list.length());
            if (r == null) {
                list.trim(1, 0);
            } else {
                list.trim(r[0], r[1]);
            }
            list.save("ltrim");
            return Reply.OK;
        });
    }

    /** LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]. */
    private static CompletableFuture<Reply> lpos(Invocation inv, Transaction tr) {
        long rank = 1;
        long count = -1;
        long maxlen = 0;
        for (int i = 3; i < inv.argc(); i++) {
            String opt = inv.option(i);
            boolean more = i + 1 < inv.argc();
            if (opt.equals("RANK") && more) {
                rank = inv.longArg(++i);
                if (rank == 0) {
                    throw new RedisException("ERR RANK can't be zero: use 1 to start from the first match, 2 from the "
                            + "second ... or use negative to start from the end of the list");
                }
            } else if (opt.equals("COUNT") && more) {
                count = nonNegative(inv, ++i, "ERR COUNT can't be negative");
            } else if (opt.equals("MAXLEN") && more) {
                maxlen = nonNegative(inv, ++i, "ERR MAXLEN can't be negative");
            } else {
                throw RedisException.syntax();
            }
        }
        boolean fromTail = rank < 0;
        long skip = fromTail ? -rank : rank;
        long wanted = count;
        long scanLimit = maxlen;
        byte[] element = inv.arg(2);
        return ListValue.read(tr, keys(inv), inv.db(), inv.arg(1), inv.now()).thenCompose(list -> {
            if (list == null) {
                return done(wanted != -1 ? Reply.EMPTY_ARRAY : Reply.NULL_BULK);
            }
            List<Reply> found = new ArrayList<>();
            long[] seen = {0, 0};
            long length = list.length();
            return list.scan(fromTail, (index, value) -> {
                if (scanLimit != 0 && seen[0] >= scanLimit) {
                    return false;
                }
                seen[0]++;
                if (Arrays.equals(value, element) && ++seen[1] >= skip) {
                    found.add(Reply.integer(index));
                    return wanted != -1 && (wanted == 0 || found.size() < wanted);
                }
                return true;
            }).thenApply(ignored -> {
                if (wanted != -1) {
                    return Reply.array(found);
                }
                return found.isEmpty() ? Reply.NULL_BULK : found.get(0);
            });
        });
    }

    /** A count that must be 0 or more: Redis's {@code getPositiveLongFromObjectOrReply} with {@code error} for both faults. */
    static long nonNegative(Invocation inv, int i, String error) {
        long v = Numbers.parseLong(inv.arg(i), error);
        if (v < 0) {
            throw new RedisException(error);
        }
        return v;
    }

    /** LEFT or RIGHT: true for LEFT. */
    static boolean side(Invocation inv, int i) {
        String s = inv.option(i);
        if (s.equals("LEFT")) {
            return true;
        }
        if (s.equals("RIGHT")) {
            return false;
        }
        throw RedisException.syntax();
    }

    /**
     * LMOVE/RPOPLPUSH: pops from one end of the source and pushes onto one end of the
     * destination (the same list rotates); the element, or null when the source is absent. The
     * destination's type is checked only when the source exists, as Redis does.
     */
    static CompletableFuture<byte[]> lmove(Invocation inv, Transaction tr, boolean fromLeft, boolean toLeft) {
        return lmove(inv, tr, inv.arg(1), inv.arg(2), fromLeft, toLeft, true, BlockingAttempt.NOBODY);
    }

    /**
     * The heart of LMOVE and BLMOVE. With {@code strictSource} false (a blocked BLMOVE's retry)
     * a source of another type counts as absent; so does one {@code passOver} accepts.
     */
    static CompletableFuture<byte[]> lmove(Invocation inv, Transaction tr, byte[] src, byte[] dst, boolean fromLeft,
                                           boolean toLeft, boolean strictSource, Predicate<byte[]> passOver) {
        KeyStore keys = keys(inv);
        int db = inv.db();
        long now = inv.now();
        return BlockingListCommands.openSource(tr, keys, db, src, now, strictSource, passOver).thenCompose(source -> {
            if (source == null) {
                return CompletableFuture.completedFuture((byte[]) null);
            }
            if (Arrays.equals(src, dst)) {
                return source.pop(fromLeft, 1).thenApply(values -> {
                    source.push(toLeft, values.get(0));
                    // Redis pushes onto the destination, then reports the pop.
                    source.save(toLeft ? "lpush" : "rpush", fromLeft ? "lpop" : "rpop");
                    return values.get(0);
                });
            }
            return ListValue.forWrite(tr, keys, db, dst, now).thenCompose(existing -> {
                CompletableFuture<ListValue> target = existing != null ? CompletableFuture.completedFuture(existing)
                        : ListValue.create(tr, keys, db, dst);
                return target.thenCompose(destination -> source.pop(fromLeft, 1).thenApply(values -> {
                    byte[] v = values.get(0);
                    destination.push(toLeft, v);
                    destination.save(toLeft ? "lpush" : "rpush");
                    source.save(fromLeft ? "lpop" : "rpop");
                    return v;
                }));
            });
        });
    }

    /** LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]. */
    private static CompletableFuture<Reply> lmpop(Invocation inv, Transaction tr) {
        MpopArgs a = MpopArgs.parse(inv, 1);
        return mpop(inv, tr, a, 0, true, BlockingAttempt.NOBODY).thenApply(r -> r == null ? Reply.NULL_ARRAY : r);
    }

    /** The arguments of LMPOP and BLMPOP. */
    record MpopArgs(List<byte[]> keys, boolean left, long count) {
        /** Parses from {@code numkeysAt} on, with Redis's messages and in its order. */
        static MpopArgs parse(Invocation inv, int numkeysAt) {
            long numkeys = Numbers.parseLong(inv.arg(numkeysAt), "ERR numkeys should be greater than 0");
            if (numkeys <= 0) {
                throw new RedisException("ERR numkeys should be greater than 0");
            }
            long whereAt = numkeysAt + numkeys + 1;
            if (whereAt >= inv.argc()) {
                throw RedisException.syntax();
            }
            boolean left = side(inv, (int) whereAt);
            long count = -1;
            for (int i = (int) whereAt + 1; i < inv.argc(); i++) {
                if (count == -1 && inv.option(i).equals("COUNT") && i + 1 < inv.argc()) {
                    count = Numbers.parseLong(inv.arg(++i), "ERR count should be greater than 0");
                    if (count <= 0) {
                        throw new RedisException("ERR count should be greater than 0");
                    }
                } else {
                    throw RedisException.syntax();
                }
            }
            List<byte[]> keys = new ArrayList<>();
            for (int i = numkeysAt + 1; i < whereAt; i++) {
                keys.add(inv.arg(i));
            }
            return new MpopArgs(keys, left, count == -1 ? 1 : count);
        }
    }

    /**
     * Pops up to {@code a.count} elements from the first non-empty list of {@code a.keys},
     * starting at key {@code from}: [key, [elements]], or null if none has any. With
     * {@code strict} false (a blocked retry) keys of another type are passed over, and so are
     * lists {@code passOver} accepts.
     */
    static CompletableFuture<Reply> mpop(Invocation inv, Transaction tr, MpopArgs a, int from, boolean strict,
                                         Predicate<byte[]> passOver) {
        return KeysInTurn.firstOf(a.keys().size() - from, i -> {
            byte[] key = a.keys().get(from + i);
            return BlockingListCommands.openSource(tr, keys(inv), inv.db(), key, inv.now(), strict, passOver).thenCompose(list -> {
                if (list == null) {
                    return CompletableFuture.completedFuture(null);
                }
                return list.pop(a.left(), a.count()).thenApply(values -> {
                    list.save(a.left() ? "lpop" : "rpop");
                    return Reply.array(Reply.bulk(key), Reply.bulks(values));
                });
            });
        });
    }
}
