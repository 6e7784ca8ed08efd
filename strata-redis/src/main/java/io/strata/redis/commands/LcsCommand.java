package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN]: the longest common subsequence of
 * two strings (missing keys are empty strings). Read-only; both values are read in one
 * transaction, so the answer is about one consistent state.
 *
 * <p>Memory: Redis refuses a table over {@code proto-max-bulk-len} (512 MB); so does this.
 * Below that, a table this JVM cannot spare answers Redis's "failed allocating" error rather
 * than risking the heap: {@link #TABLE_LIMIT_BYTES}. LEN alone needs no table.
 */
final class LcsCommand {
    /** The largest table this server builds (64 MB: strings of about 4,000 bytes each). */
    static final long TABLE_LIMIT_BYTES = 64L << 20;

    private LcsCommand() {
    }

    static void register(CommandTable t) {
        t.add("lcs", -3, "readonly", 1, 2, 1, "string", DATA, LcsCommand::lcs);
    }

    private static CompletableFuture<Reply> lcs(Invocation inv, Transaction tr) {
        CompletableFuture<KeyMeta> first = inv.server().keys().get(tr, inv.db(), inv.arg(1), inv.now());
        CompletableFuture<KeyMeta> second = inv.server().keys().get(tr, inv.db(), inv.arg(2), inv.now());
        return first.thenCombine(second, (a, b) -> {
            // Redis checks the types before the options.
            if ((a != null && a.type() != RedisType.STRING) || (b != null && b.type() != RedisType.STRING)) {
                throw new RedisException("ERR The specified keys must contain string values");
            }
            return new KeyMeta[] {a, b};
        }).thenCompose(metas -> BitCommands.valueOf(inv, tr, metas[0]).thenCombine(BitCommands.valueOf(inv, tr, metas[1]),
                (a, b) -> answer(inv, a == null ? new byte[0] : a, b == null ? new byte[0] : b)));
    }

    private static Reply answer(Invocation inv, byte[] a, byte[] b) {
        boolean len = false;
        boolean idx = false;
        boolean withMatchLen = false;
        long minMatchLen = 0;
        for (int j = 3; j < inv.argc(); j++) {
            String opt = inv.option(j);
            boolean more = j + 1 < inv.argc();
            if (opt.equals("IDX")) {
                idx = true;
            } else if (opt.equals("LEN")) {
                len = true;
            } else if (opt.equals("WITHMATCHLEN")) {
                withMatchLen = true;
            } else if (opt.equals("MINMATCHLEN") && more) {
                minMatchLen = Math.max(0, inv.longArg(++j));
            } else {
                throw RedisException.syntax();
            }
        }
        if (len && idx) {
            throw new RedisException("ERR If you want both the length and indexes, please just use IDX.");
        }
        long tableBytes = (long) (a.length + 1) * (b.length + 1) * Integer.BYTES;
        if (tableBytes > StringValues.MAX_STRING) {
            throw new RedisException("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
        }
        if (len) {
            return Reply.integer(Lcs.length(a, b));
        }
        if (tableBytes > TABLE_LIMIT_BYTES) {
            throw new RedisException("ERR Insufficient memory, failed allocating transient memory for LCS");
        }
        Lcs.Result result = Lcs.compute(a, b);
        if (!idx) {
            return Reply.bulk(result.sequence());
        }
        List<Reply> matches = new ArrayList<>();
        for (Lcs.Match m : result.matches()) {
            if (minMatchLen != 0 && m.length() < minMatchLen) {
                continue;
            }
            List<Reply> entry = new ArrayList<>();
            entry.add(Reply.array(Reply.integer(m.aStart()), Reply.integer(m.aEnd())));
            entry.add(Reply.array(Reply.integer(m.bStart()), Reply.integer(m.bEnd())));
            if (withMatchLen) {
                entry.add(Reply.integer(m.length()));
            }
            matches.add(Reply.array(entry));
        }
        return Reply.map(List.of(Reply.bulk("matches"), Reply.array(matches), Reply.bulk("len"), Reply.integer(result.length())));
    }
}
