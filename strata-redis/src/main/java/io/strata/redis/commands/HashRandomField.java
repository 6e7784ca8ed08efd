package io.strata.redis.commands;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * HRANDFIELD key [count [WITHVALUES]], with Redis 7.0's argument checks in its order.
 *
 * <p>One field (no count, or a count of 1 or -1) is picked uniformly without reading the hash:
 * a random index below the field count, reached with a key selector's offset. More fields are
 * drawn from one read of the whole hash: uniformly with repetition for a negative count,
 * a uniform subset for a positive one (the whole hash when the count reaches its size).
 * Replies are Redis's: RESP3 pairs a field with its value in a two-element array, RESP2
 * flattens them.
 */
final class HashRandomField {
    /** The most fields a negative count may ask for: the reply is built in memory, where Redis streams it. */
    static final long MAX_REPEATED = 1_000_000;

    private HashRandomField() {
    }

    static CompletableFuture<Reply> hrandfield(Invocation inv, Transaction tr) {
        if (inv.argc() == 2) {
            return HashKeys.read(inv, tr).thenCompose(h -> h == null
                    ? CompletableFuture.completedFuture(Reply.NULL_BULK)
                    : pickOne(tr, h).thenApply(kv -> Reply.bulk(h.fieldOf(kv.getKey()))));
        }
        long count = inv.longArg(2);
        if (count == Long.MIN_VALUE) {
            throw new RedisException("ERR value is out of range, value must between " + -Long.MAX_VALUE + " and " + Long.MAX_VALUE);
        }
        if (inv.argc() > 4 || (inv.argc() == 4 && !inv.option(3).equals("WITHVALUES"))) {
            throw RedisException.syntax();
        }
        boolean withValues = inv.argc() == 4;
        if (withValues && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
            throw new RedisException("ERR value is out of range");
        }
        boolean pairs = inv.session().protocol() >= 3;
        return HashKeys.read(inv, tr).thenCompose(h -> {
            if (h == null || count == 0) {
                return CompletableFuture.completedFuture(Reply.EMPTY_ARRAY);
            }
            if (count == 1 || count == -1) {
                return pickOne(tr, h).thenApply(kv -> reply(h, List.of(kv), withValues, pairs));
            }
            if (count < 0 && -count > MAX_REPEATED) {
                throw new RedisException("ERR count is out of range: at most " + MAX_REPEATED + " fields with repetition");
            }
            return h.all(tr).thenApply(all -> reply(h, count < 0 ? withRepetition(all, -count) : subset(all, count),
                    withValues, pairs));
        });
    }

    /** One field chosen uniformly: the i-th key of the hash for a random i below its size. */
    private static CompletableFuture<KeyValue> pickOne(Transaction tr, HashObject h) {
        return h.size(tr).thenCompose(size -> {
            int index = (int) ThreadLocalRandom.current().nextLong(Math.min(size, Integer.MAX_VALUE));
            Range fields = h.fields();
            KeySelector at = KeySelector.firstGreaterOrEqual(fields.begin).add(index);
            return tr.getRange(at, KeySelector.firstGreaterOrEqual(fields.end), 1).asList();
        }).thenApply(found -> {
            if (found.isEmpty()) {
                throw new IllegalStateException("hash field count disagrees with its fields");
            }
            return found.get(0);
        });
    }

    private static List<KeyValue> withRepetition(List<KeyValue> all, long count) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<KeyValue> out = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            out.add(all.get(random.nextInt(all.size())));
        }
        return out;
    }

    /** {@code count} distinct entries chosen uniformly (a partial Fisher-Yates shuffle), or all of them. */
    private static List<KeyValue> subset(List<KeyValue> all, long count) {
        if (count >= all.size()) {
            return all;
        }
        List<KeyValue> pool = new ArrayList<>(all);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < count; i++) {
            int j = i + random.nextInt(pool.size() - i);
            KeyValue swap = pool.get(i);
            pool.set(i, pool.get(j));
            pool.set(j, swap);
        }
        return pool.subList(0, (int) count);
    }

    private static Reply reply(HashObject h, List<KeyValue> chosen, boolean withValues, boolean pairs) {
        List<Reply> out = new ArrayList<>(withValues && !pairs ? chosen.size() * 2 : chosen.size());
        for (KeyValue kv : chosen) {
            Reply field = Reply.bulk(h.fieldOf(kv.getKey()));
            if (!withValues) {
                out.add(field);
            } else if (pairs) {
                out.add(Reply.array(field, Reply.bulk(kv.getValue())));
            } else {
                out.add(field);
                out.add(Reply.bulk(kv.getValue()));
            }
        }
        return Reply.array(out);
    }
}
