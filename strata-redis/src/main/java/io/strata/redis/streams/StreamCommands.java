package io.strata.redis.streams;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * XADD, XLEN, XRANGE, XREVRANGE, XDEL, XTRIM and XSETID, as Redis 7.0. Each runs in one
 * transaction and finds every error before its first write. Stored as {@link StreamValue}
 * describes. Keyspace events as Redis sends them: xadd (then xtrim if it trimmed), xdel, xtrim,
 * xsetid, after the change.
 */
public final class StreamCommands {
    private StreamCommands() {
    }

    /** Registers every stream command. */
    public static void register(CommandTable t) {
        t.add("xadd", -5, "write denyoom fast", 1, 1, 1, "stream", DATA, StreamCommands::xadd);
        t.add("xlen", 2, "readonly fast", 1, 1, 1, "stream", DATA, StreamCommands::xlen);
        t.add("xrange", -4, "readonly", 1, 1, 1, "stream", DATA, (inv, tr) -> xrange(inv, tr, false));
        t.add("xrevrange", -4, "readonly", 1, 1, 1, "stream", DATA, (inv, tr) -> xrange(inv, tr, true));
        t.add("xdel", -3, "write fast", 1, 1, 1, "stream", DATA, StreamCommands::xdel);
        t.add("xtrim", -4, "write", 1, 1, 1, "stream", DATA, StreamCommands::xtrim);
        t.add("xsetid", -3, "write denyoom fast", 1, 1, 1, "stream", DATA, StreamCommands::xsetid);
        StreamReadCommands.register(t);
        StreamGroupCommands.register(t);
        StreamInfoCommand.register(t);
    }

    static CompletableFuture<StreamValue> open(Invocation inv, Transaction tr) {
        return StreamValue.open(tr, inv.server().keys(), inv.db(), inv.arg(1), inv.now());
    }

    static CompletableFuture<StreamValue> openForWrite(Invocation inv, Transaction tr) {
        return StreamValue.openForWrite(tr, inv.server().keys(), inv.db(), inv.arg(1), inv.now());
    }

    /** XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value ...] */
    private static CompletableFuture<Reply> xadd(Invocation inv, Transaction tr) {
        TrimArgs args = TrimArgs.parse(inv, true);
        int fieldPos = args.idPos + 1;
        int fields = inv.argc() - fieldPos;
        if (fields < 2 || fields % 2 == 1) {
            throw new RedisException("ERR wrong number of arguments for 'xadd' command");
        }
        if (args.id != null && args.id.seqGiven() && args.id.id().isZero()) {
            throw new RedisException("ERR The ID specified in XADD must be greater than 0-0");
        }
        List<byte[]> values = new ArrayList<>(Arrays.asList(inv.args()).subList(fieldPos, inv.argc()));
        StreamValue.checkFits(values);
        long nodeEntries = TrimArgs.nodeEntries(inv);
        return openForWrite(inv, tr).thenCompose(existing -> {
            if (existing == null && args.noMkStream) {
                return CompletableFuture.completedFuture(Reply.NULL_BULK);
            }
            if (existing != null) {
                return append(inv, existing, args, values, nodeEntries);
            }
            return StreamValue.create(tr, inv.server().keys(), inv.db(), inv.arg(1))
                    .thenCompose(s -> append(inv, s, args, values, nodeEntries));
        });
    }

    private static CompletableFuture<Reply> append(Invocation inv, StreamValue s, TrimArgs args, List<byte[]> values,
                                                   long nodeEntries) {
        StreamId id = nextId(s.header().lastId(), args.id, inv.now());
        s.append(id, values, nodeEntries);
        return args.apply(s).thenApply(trimmed -> {
            s.save();
            inv.keyspaceEvent(s.tr, NotifyKeyspaceEvents.STREAM, "xadd", inv.arg(1));
            if (trimmed > 0) {
                inv.keyspaceEvent(s.tr, NotifyKeyspaceEvents.STREAM, "xtrim", inv.arg(1));
            }
            return id.reply();
        });
    }

    /**
     * The ID XADD gives a new entry after {@code last}: the one given, the given milliseconds
     * with the next sequence, or from the clock; errors when it is not past {@code last}.
     */
    static StreamId nextId(StreamId last, StreamId.Parsed given, long nowMillis) {
        if (last.equals(StreamId.MAX)) {
            throw new RedisException("ERR The stream has exhausted the last possible ID, unable to add more items");
        }
        StreamId id;
        if (given == null) {
            id = Long.compareUnsigned(nowMillis, last.ms()) > 0 ? new StreamId(nowMillis, 0) : last.next();
        } else if (given.seqGiven()) {
            id = given.id();
        } else if (given.id().ms() == last.ms()) {
            if (last.seq() == -1L) {
                throw equalOrSmaller();
            }
            id = new StreamId(last.ms(), last.seq() + 1);
        } else {
            id = given.id();
        }
        if (id.compareTo(last) <= 0) {
            throw equalOrSmaller();
        }
        return id;
    }

    private static RedisException equalOrSmaller() {
        return new RedisException("ERR The ID specified in XADD is equal or smaller than the target stream top item");
    }

    private static CompletableFuture<Reply> xlen(Invocation inv, Transaction tr) {
        return open(inv, tr).thenApply(s -> Reply.integer(s == null ? 0 : s.length()));
    }

    /** XRANGE key start end [COUNT n]; XREVRANGE key end start [COUNT n]. */
    private static CompletableFuture<Reply> xrange(Invocation inv, Transaction tr, boolean reverse) {
        StreamId start = StreamId.parseBound(inv.arg(reverse ? 3 : 2), true);
        StreamId end = StreamId.parseBound(inv.arg(reverse ? 2 : 3), false);
        long count = -1;
        for (int j = 4; j < inv.argc(); j++) {
            if (inv.option(j).equals("COUNT") && j + 1 < inv.argc()) {
                count = Math.max(0, Numbers.parseLong(inv.arg(++j), RedisException.NOT_INTEGER));
            } else {
                throw RedisException.syntax();
            }
        }
        long n = count;
        return open(inv, tr).thenCompose(s -> {
            if (s == null) {
                return CompletableFuture.completedFuture(Reply.EMPTY_ARRAY);
            }
            if (n == 0) {
                return CompletableFuture.completedFuture(Reply.NULL_ARRAY);
            }
            return s.range(start, end, n < 0 ? 0 : n, reverse).thenApply(StreamCommands::entries);
        });
    }

    static Reply entries(List<StreamEntry> list) {
        List<Reply> out = new ArrayList<>(list.size());
        for (StreamEntry e : list) {
            out.add(e.reply());
        }
        return Reply.array(out);
    }

    /** XDEL key id [id ...]: how many existed; the stream stays even if emptied. */
    private static CompletableFuture<Reply> xdel(Invocation inv, Transaction tr) {
        return openForWrite(inv, tr).thenCompose(s -> {
            if (s == null) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            List<StreamId> ids = new ArrayList<>();
            for (int j = 2; j < inv.argc(); j++) {
                ids.add(StreamId.parseStrict(inv.arg(j)));
            }
            return s.delete(ids).thenApply(n -> removed(inv, tr, s, n, "xdel"));
        });
    }

    /** After XDEL or XTRIM took {@code n} entries: the stream saved and {@code event} published if any went. */
    private static Reply removed(Invocation inv, Transaction tr, StreamValue s, long n, String event) {
        if (n > 0) {
            s.save();
            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STREAM, event, inv.arg(1));
        }
        return Reply.integer(n);
    }

    /** XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]: how many entries went. */
    private static CompletableFuture<Reply> xtrim(Invocation inv, Transaction tr) {
        TrimArgs args = TrimArgs.parse(inv, false);
        long nodeEntries = TrimArgs.nodeEntries(inv);
        return openForWrite(inv, tr).thenCompose(s -> {
            if (s == null) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            return args.apply(s).thenApply(n -> removed(inv, tr, s, n, "xtrim"));
        });
    }

    /** XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id] */
    private static CompletableFuture<Reply> xsetid(Invocation inv, Transaction tr) {
        StreamId id = StreamId.parseStrict(inv.arg(2));
        long entriesAdded = -1;
        StreamId maxDeleted = StreamId.MIN;
        for (int i = 3; i < inv.argc(); i++) {
            boolean more = i + 1 < inv.argc();
            String opt = inv.option(i);
            if (opt.equals("ENTRIESADDED") && more) {
                entriesAdded = Numbers.parseLong(inv.arg(++i), RedisException.NOT_INTEGER);
                if (entriesAdded < 0) {
                    throw new RedisException("ERR entries_added must be positive");
                }
            } else if (opt.equals("MAXDELETEDID") && more) {
                maxDeleted = StreamId.parseStrict(inv.arg(++i));
                if (id.compareTo(maxDeleted) < 0) {
                    throw new RedisException("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
                }
            } else {
                throw RedisException.syntax();
            }
        }
        long added = entriesAdded;
        StreamId deleted = maxDeleted;
        return openForWrite(inv, tr).thenCompose(s -> {
            if (s == null) {
                throw new RedisException("ERR no such key");
            }
            CompletableFuture<StreamEntry> last = s.length() > 0 ? s.edge(false) : CompletableFuture.completedFuture(null);
            return last.thenApply(top -> {
                if (top != null) {
                    if (id.compareTo(top.id()) < 0) {
                        throw new RedisException("ERR The ID specified in XSETID is smaller than the target stream top item");
                    }
                    if (added != -1 && s.length() > added) {
                        throw new RedisException("ERR The entries_added specified in XSETID is smaller than the target stream length");
                    }
                }
                StreamHeader h = s.header();
                s.header(h.withIds(id, deleted.isZero() ? h.maxDeletedId() : deleted, added != -1 ? added : h.entriesAdded()));
                s.save();
                inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STREAM, "xsetid", inv.arg(1));
                return Reply.OK;
            });
        });
    }
}
