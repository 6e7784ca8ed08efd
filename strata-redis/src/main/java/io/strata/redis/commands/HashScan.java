package io.strata.redis.commands;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.ScanArgs;
import io.strata.redis.keyspace.ScanCursors;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * HSCAN key cursor [MATCH pattern] [COUNT count].
 *
 * <p>A small hash (listpack-encoded in Redis's words: see {@link HashObject}) is answered whole
 * with cursor 0, whatever the cursor and COUNT, in insertion order, as Redis answers it; so is
 * any hash of at most {@link #WHOLE_MAX} fields, in field order. A larger one is walked in field order, COUNT fields per
 * call; the cursor names a record of {@link ScanCursors} holding the last field returned, so
 * the next call resumes after that field in whatever object the key then holds. Every field
 * present from the first call to the last is returned (once, unless the hash shrinks to
 * {@link #WHOLE_MAX} fields mid-walk and is then answered whole), and the walk survives
 * writes, restarts and other server processes. A cursor this database does not know starts
 * over, which Redis's guarantees allow (elements may come more than once).
 *
 * <p>Redis's order of checks: the cursor, then the key (an absent key answers an empty scan
 * whatever the options), then the options.
 */
final class HashScan {
    static final int WHOLE_MAX = 128;

    private HashScan() {
    }

    static CompletableFuture<Reply> hscan(Invocation inv, Transaction tr) {
        long cursor = ScanArgs.parse(cursorOnly(inv), 2, false).cursor();
        return HashKeys.read(inv, tr).thenCompose(h -> {
            if (h == null) {
                return CompletableFuture.completedFuture(reply(0, List.of()));
            }
            ScanArgs args = ScanArgs.parse(inv, 2, false);
            ScanCursors cursors = new ScanCursors(inv.server().keys().keyspace());
            return h.size(tr).thenCombine(h.isSmall(tr), (size, small) -> small || size <= WHOLE_MAX).thenCompose(whole -> {
                if (whole) {
                    return h.allInOrder(tr).thenApply(all -> reply(0, matching(h, all, args)));
                }
                return cursors.load(tr, cursor).thenCompose(after -> page(inv, tr, h, args, cursors, after));
            });
        });
    }

    /** COUNT fields after field {@code after} (from the first when null), and the cursor to resume with. */
    private static CompletableFuture<Reply> page(Invocation inv, Transaction tr, HashObject h, ScanArgs args,
                                                 ScanCursors cursors, byte[] after) {
        Range fields = h.fields();
        byte[] begin = after == null ? fields.begin : successor(h.fieldKey(after));
        int limit = (int) Math.min(args.count(), Integer.MAX_VALUE - 1);
        // One more than asked tells whether anything follows, so the last page answers cursor 0.
        return tr.getRange(begin, fields.end, limit + 1).asList().thenApply(kvs -> {
            if (kvs.size() <= limit) {
                return reply(0, matching(h, kvs, args));
            }
            List<KeyValue> page = kvs.subList(0, limit);
            byte[] last = h.fieldOf(page.get(limit - 1).getKey());
            long next = cursors.save(tr, last, inv.now());
            return reply(next, matching(h, page, args));
        });
    }

    /** The first key after {@code key}. */
    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    private static List<Reply> matching(HashObject h, List<KeyValue> kvs, ScanArgs args) {
        List<Reply> out = new ArrayList<>();
        for (KeyValue kv : kvs) {
            byte[] field = h.fieldOf(kv.getKey());
            if (args.matches(field)) {
                out.add(Reply.bulk(field));
                out.add(Reply.bulk(kv.getValue()));
            }
        }
        return out;
    }

    private static Reply reply(long cursor, List<Reply> items) {
        return Reply.array(Reply.bulk(Long.toUnsignedString(cursor)), Reply.array(items));
    }

    /** The request up to its cursor, to check the cursor before the key and the options after it. */
    private static Invocation cursorOnly(Invocation inv) {
        return new Invocation(Arrays.copyOf(inv.args(), 3), inv.session(), inv.server(), inv.spec());
    }
}
