package io.strata.redis.streams;

import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;

import java.util.concurrent.CompletableFuture;

/**
 * The trimming options of XADD and XTRIM ({@code MAXLEN|MINID [=|~] threshold [LIMIT n]}),
 * and XADD's NOMKSTREAM and ID, parsed as Redis 7.0's {@code streamParseAddOrTrimArgsOrReply}.
 *
 * <p>Approximate trimming ({@code ~}): Redis removes only whole radix-tree nodes; each entry
 * here records the node Redis would have put it in ({@link StreamHeader}), and {@code ~}
 * removes whole nodes from the head as Redis does (within LIMIT, and never below the
 * threshold). Nodes here count entries only, not bytes ({@code stream-node-max-bytes}).
 */
final class TrimArgs {
    enum Strategy { NONE, MAXLEN, MINID }

    Strategy strategy = Strategy.NONE;
    boolean approx;
    long maxlen;
    StreamId minid;
    /** 0: no limit. */
    long limit;
    boolean noMkStream;
    /** XADD's ID argument position. */
    int idPos = -1;
    StreamId.Parsed id;

    private static final byte[] STAR = {'*'};

    /** Parses from argument 2 on; for XADD stops at the ID (which it parses). */
    static TrimArgs parse(Invocation inv, boolean xadd) {
        TrimArgs a = new TrimArgs();
        boolean limitGiven = false;
        int i = 2;
        for (; i < inv.argc(); i++) {
            int more = inv.argc() - 1 - i;
            byte[] arg = inv.arg(i);
            String opt = inv.option(i);
            if (xadd && java.util.Arrays.equals(arg, STAR)) {
                break;
            } else if ((opt.equals("MAXLEN") || opt.equals("MINID")) && more > 0) {
                if (a.strategy != Strategy.NONE) {
                    throw new RedisException("ERR syntax error, MAXLEN and MINID options at the same time are not compatible");
                }
                a.approx = false;
                String next = inv.argString(i + 1);
                if (more >= 2 && (next.equals("~") || next.equals("="))) {
                    a.approx = next.equals("~");
                    i++;
                }
                if (opt.equals("MAXLEN")) {
                    a.maxlen = Numbers.parseLong(inv.arg(i + 1), RedisException.NOT_INTEGER);
                    if (a.maxlen < 0) {
                        throw new RedisException("ERR The MAXLEN argument must be >= 0.");
                    }
                    a.strategy = Strategy.MAXLEN;
                } else {
                    a.minid = StreamId.parseStrict(inv.arg(i + 1));
                    a.strategy = Strategy.MINID;
                }
                i++;
            } else if (opt.equals("LIMIT") && more > 0) {
                a.limit = Numbers.parseLong(inv.arg(i + 1), RedisException.NOT_INTEGER);
                if (a.limit < 0) {
                    throw new RedisException("ERR The LIMIT argument must be >= 0.");
                }
                limitGiven = true;
                i++;
            } else if (xadd && opt.equals("NOMKSTREAM")) {
                a.noMkStream = true;
            } else if (xadd) {
                a.id = StreamId.parse(arg, 0, true, true);
                break;
            } else {
                throw RedisException.syntax();
            }
        }
        a.idPos = i;
        if (a.limit != 0 && a.strategy == Strategy.NONE) {
            throw new RedisException("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy");
        }
        if (!xadd && a.strategy == Strategy.NONE) {
            throw new RedisException("ERR syntax error, XTRIM must be called with a trimming strategy");
        }
        if (limitGiven) {
            if (!a.approx) {
                throw new RedisException("ERR syntax error, LIMIT cannot be used without the special ~ option");
            }
        } else if (a.approx) {
            long node = nodeEntries(inv);
            a.limit = Math.min(Math.max(100 * node, 0), 1_000_000);
            if (a.limit <= 0) {
                a.limit = 10_000;
            }
        } else {
            a.limit = 0;
        }
        return a;
    }

    static long nodeEntries(Invocation inv) {
        long n = inv.server().settings().getLong("stream-node-max-entries");
        return n <= 0 ? 100 : n;
    }

    /** Trims {@code s}: the number of entries removed. */
    CompletableFuture<Long> apply(StreamValue s) {
        switch (strategy) {
            case MAXLEN: {
                long excess = s.length() - maxlen;
                if (excess <= 0) {
                    return CompletableFuture.completedFuture(0L);
                }
                return approx ? s.removeWholeNodes(excess, null, limit) : s.removeFirst(excess);
            }
            case MINID:
                return approx ? s.removeWholeNodes(s.length(), minid, limit)
                        : s.removeBelow(minid);
            default:
                return CompletableFuture.completedFuture(0L);
        }
    }
}
