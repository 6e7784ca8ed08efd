package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.ScanArgs;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.keyspace.ScanCursors;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SCAN cursor [MATCH pattern] [COUNT n] [TYPE t]: walks the selected database's metadata
 * range ({@code P 'k' db key}) in key order, COUNT keys per call, resuming after the Redis
 * key its cursor record ({@link ScanCursors}) names. A key present for the whole scan is
 * returned exactly once (keys come in order and the walk never goes back), which is more
 * than Redis promises. MATCH and TYPE filter the keys examined, so a call may return fewer
 * than COUNT keys, or none, with a cursor to continue; expired keys are skipped (the expiry
 * cycle removes them; SCAN stays read-only on the keyspace).
 *
 * <p>Concurrency: the range is read as a snapshot, so a scan never conflicts with writers;
 * its only write is the new cursor record, under a fresh random number.
 */
final class ScanCommand {
    private ScanCommand() {
    }

    static void register(CommandTable t) {
        t.add("scan", -2, "readonly", 0, 0, 0, "keyspace", DATA, ScanCommand::scan);
    }

    private static CompletableFuture<Reply> scan(Invocation inv, Transaction tr) {
        ScanArgs args = ScanArgs.parse(inv, 1, true);
        Keyspace keyspace = inv.server().keys().keyspace();
        ScanCursors cursors = new ScanCursors(keyspace);
        int db = inv.db();
        long now = inv.now();
        Range all = keyspace.metaRange(db);
        int limit = (int) Math.min(args.count(), 100_000);
        return cursors.load(tr, args.cursor()).thenCompose(resumeAfter -> {
            KeySelector begin = resumeAfter == null ? KeySelector.firstGreaterOrEqual(all.begin)
                    : KeySelector.firstGreaterThan(keyspace.metaKey(db, resumeAfter));
            return tr.snapshot().getRange(begin, KeySelector.firstGreaterOrEqual(all.end), limit).asList();
        }).thenApply(kvs -> {
            List<Reply> found = new ArrayList<>();
            byte[] last = null;
            for (KeyValue kv : kvs) {
                byte[] key = keyspace.keyOfMeta(kv.getKey());
                last = key;
                KeyMeta meta = KeyMeta.decode(kv.getValue());
                if (meta.expiredAt(now) || !args.matches(key)) {
                    continue;
                }
                if (args.type() != null && !meta.type().typeName().equals(args.type())) {
                    continue;
                }
                found.add(Reply.bulk(key));
            }
            long next = kvs.size() < limit ? 0 : cursors.save(tr, last, now);
            return Reply.array(Reply.bulk(Long.toUnsignedString(next)), Reply.array(found));
        });
    }
}
