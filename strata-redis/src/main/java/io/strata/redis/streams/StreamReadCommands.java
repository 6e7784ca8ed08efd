package io.strata.redis.streams;

import static io.strata.redis.command.CommandSpec.Kind.BLOCKING;

import com.apple.foundationdb.Transaction;
import io.strata.redis.blocking.BlockingAttempt;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * XREAD and XREADGROUP, with BLOCK waiting through the server's blocked clients (FoundationDB
 * watches on the streams' keys, see {@code io.strata.redis.blocking}). The first try resolves
 * {@code $} (the stream's last ID then) and checks every key, group and ID, as Redis does
 * before it blocks; later tries serve the first stream that has entries past what the client
 * waits for, one stream per reply, as Redis serves a blocked reader. Reading takes nothing,
 * so every XREAD waiting on a stream is served by the same addition. Queued in MULTI the
 * command does not wait: it answers nil when nothing is there, as Redis does.
 */
final class StreamReadCommands {
    /** Redis serves a blocked reader at most this many entries when it gave no COUNT. */
    static final long BLOCKED_DEFAULT_COUNT = 1000;

    private StreamReadCommands() {
    }

    static void register(CommandTable t) {
        t.add("xread", -4, "readonly blocking movable_keys", 0, 0, 0, "stream", BLOCKING, (inv, tr) -> read(inv, tr, false));
        t.add("xreadgroup", -7, "write blocking movable_keys", 0, 0, 0, "stream", BLOCKING, (inv, tr) -> read(inv, tr, true));
    }

    /** The parsed request; {@link #resolved} is set by the first try (the IDs it waits past). */
    private static final class Request {
        final List<byte[]> keys = new ArrayList<>();
        final List<byte[]> idArgs = new ArrayList<>();
        long count;
        long timeoutMillis = -1;
        byte[] group;
        byte[] consumer;
        boolean noack;
        volatile StreamId[] resolved;
    }

    private static CompletableFuture<Reply> read(Invocation inv, Transaction tr, boolean xreadgroup) {
        Request r = parse(inv, xreadgroup);
        BlockingAttempt attempt = new BlockingAttempt() {
            @Override
            public CompletableFuture<Reply> attempt(Transaction t, boolean first, java.util.function.Predicate<byte[]> waitedOn) {
                // Reading takes nothing from the readers in line before it: waitedOn is not needed.
                return first ? firstTry(inv, t, r) : retry(inv, t, r);
            }

            @Override
            public boolean othersMayBeServed() {
                return true;
            }
        };
        if (tr != null) {
            // Inside EXEC: one try, never a wait.
            return firstTry(inv, tr, r).thenApply(reply -> reply == null ? Reply.NULL_ARRAY : reply);
        }
        if (r.timeoutMillis < 0) {
            AtomicReference<Transaction> committed = new AtomicReference<>();
            return inv.server().database().runAsync(t -> {
                committed.set(t);
                return firstTry(inv, t, r);
            }).thenCompose(reply -> inv.server().blocked().afterCommit(committed.get())
                    .thenApply(ignored -> reply == null ? Reply.NULL_ARRAY : reply));
        }
        return inv.server().blocked().block(inv.session(), inv.db(), r.keys, r.timeoutMillis, Reply.NULL_ARRAY, inv.timing(attempt));
    }

    private static Request parse(Invocation inv, boolean xreadgroup) {
        Request r = new Request();
        int streamsArg = 0;
        for (int i = 1; i < inv.argc(); i++) {
            int more = inv.argc() - i - 1;
            String o = inv.option(i);
            if (o.equals("BLOCK") && more > 0) {
                if (inv.session().scriptClient()) {
                    // As Redis: a script may not block, and says so (with the name as the script wrote it).
                    throw new RedisException("ERR " + inv.argString(0) + " command is not allowed with BLOCK option from scripts");
                }
                i++;
                long t = Numbers.parseLong(inv.arg(i), "ERR timeout is not an integer or out of range");
                if (t < 0) {
                    throw new RedisException("ERR timeout is negative");
                }
                r.timeoutMillis = t;
            } else if (o.equals("COUNT") && more > 0) {
                i++;
                r.count = Math.max(0, Numbers.parseLong(inv.arg(i), RedisException.NOT_INTEGER));
            } else if (o.equals("STREAMS") && more > 0) {
                streamsArg = i + 1;
                int n = inv.argc() - streamsArg;
                if (n % 2 != 0) {
                    throw new RedisException("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.");
                }
                break;
            } else if (o.equals("GROUP") && more >= 2) {
                if (!xreadgroup) {
                    throw new RedisException("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
                }
                r.group = inv.arg(i + 1);
                r.consumer = inv.arg(i + 2);
                i += 2;
            } else if (o.equals("NOACK")) {
                if (!xreadgroup) {
                    throw new RedisException("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
                }
                r.noack = true;
            } else {
                throw RedisException.syntax();
            }
        }
        if (streamsArg == 0) {
            throw RedisException.syntax();
        }
        if (xreadgroup && r.group == null) {
            throw new RedisException("ERR Missing GROUP option for XREADGROUP");
        }
        int n = (inv.argc() - streamsArg) / 2;
        for (int i = 0; i < n; i++) {
            r.keys.add(inv.arg(streamsArg + i));
            r.idArgs.add(inv.arg(streamsArg + n + i));
        }
        return r;
    }

    /** A stream the first try found, with its group when reading through one. */
    private record Source(byte[] key, StreamValue stream, ConsumerGroup group, Throwable error) {
        Source(byte[] key, StreamValue stream, ConsumerGroup group) {
            this(key, stream, group, null);
        }
    }

    /**
     * Checks every key and ID as Redis does before serving, resolves {@code $}, and serves
     * every stream that has something: the reply, or null when none has.
     */
    private static CompletableFuture<Reply> firstTry(Invocation inv, Transaction tr, Request r) {
        List<CompletableFuture<Source>> opened = new ArrayList<>();
        // A key named twice is one stream: the second read sees what the first delivered.
        java.util.Map<java.nio.ByteBuffer, CompletableFuture<Source>> byKey = new java.util.HashMap<>();
        for (byte[] key : r.keys) {
            CompletableFuture<Source> seen = byKey.get(java.nio.ByteBuffer.wrap(key));
            if (seen != null) {
                opened.add(seen);
                continue;
            }
            opened.add(StreamValue.open(tr, inv.server().keys(), inv.db(), key, inv.now()).handle((s, e) ->
                    // WRONGTYPE is kept and thrown in argument order below, as Redis checks one key after the other.
                    e != null ? new Source(key, null, null, e.getCause() != null ? e.getCause() : e) : new Source(key, s, null, null))
                    .thenCompose(src -> src.stream() == null || r.group == null ? CompletableFuture.completedFuture(src)
                            : ConsumerGroup.load(src.stream(), r.group).thenApply(g -> new Source(key, src.stream(), g, null))));
            byKey.put(java.nio.ByteBuffer.wrap(key), opened.get(opened.size() - 1));
        }
        return CompletableFuture.allOf(opened.toArray(new CompletableFuture[0])).thenCompose(ignored -> {
            StreamId[] ids = new StreamId[r.keys.size()];
            List<Source> sources = new ArrayList<>();
            for (int i = 0; i < r.keys.size(); i++) {
                Source src = opened.get(i).join();
                byte[] key = r.keys.get(i);
                if (src.error() != null) {
                    throw src.error() instanceof RuntimeException re ? re
                            : new java.util.concurrent.CompletionException(src.error());
                }
                if (r.group != null && src.group() == null) {
                    throw new RedisException("NOGROUP No such key '" + str(key) + "' or consumer group '" + str(r.group)
                            + "' in XREADGROUP with GROUP option");
                }
                String arg = new String(r.idArgs.get(i), StandardCharsets.ISO_8859_1);
                if (arg.equals("$")) {
                    if (r.group != null) {
                        throw new RedisException("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read"
                                + " the history of this consumer by specifying a proper ID, or use the > ID to get new"
                                + " messages. The $ ID would just return an empty result set.");
                    }
                    ids[i] = src.stream() == null ? StreamId.MIN : src.stream().header().lastId();
                } else if (arg.equals(">")) {
                    if (r.group == null) {
                        throw new RedisException("ERR The > ID can be specified only when calling XREADGROUP using the"
                                + " GROUP <group> <consumer> option.");
                    }
                    ids[i] = null;
                } else {
                    ids[i] = StreamId.parseStrict(r.idArgs.get(i));
                }
                sources.add(src);
            }
            r.resolved = ids;
            return serveAll(inv, tr, r, sources, ids);
        });
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Serves, in key order, every stream that has entries for the client; null if none. */
    private static CompletableFuture<Reply> serveAll(Invocation inv, Transaction tr, Request r, List<Source> sources,
                                                     StreamId[] ids) {
        List<CompletableFuture<Reply>> served = new ArrayList<>();
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (int i = 0; i < sources.size(); i++) {
            Source src = sources.get(i);
            StreamId gt = ids[i];
            CompletableFuture<Reply> one = new CompletableFuture<>();
            served.add(one);
            // One stream after the other: two entries of the same stream key share its records.
            chain = chain.thenCompose(v -> serveOne(inv, src, r, gt, r.count)).thenAccept(one::complete);
        }
        return chain.thenApply(v -> {
            List<Reply> pairs = new ArrayList<>();
            for (int i = 0; i < sources.size(); i++) {
                Reply entries = served.get(i).join();
                if (entries != null) {
                    pairs.add(Reply.bulk(sources.get(i).key()));
                    pairs.add(entries);
                }
            }
            return pairs.isEmpty() ? null : pairsReply(inv, pairs);
        });
    }

    /** RESP2: an array of [key, entries]; RESP3: a map of key to entries. */
    private static Reply pairsReply(Invocation inv, List<Reply> pairs) {
        if (inv.session().protocol() >= 3) {
            return Reply.map(pairs);
        }
        List<Reply> out = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i += 2) {
            out.add(Reply.array(pairs.get(i), pairs.get(i + 1)));
        }
        return Reply.array(out);
    }

    /**
     * The entries of one stream for the client, or null when it has none to give: past
     * {@code gt} for XREAD; for XREADGROUP past the group's last delivered ID ({@code gt}
     * null, the {@code >} ID) or, for another ID, the consumer's own pending entries after it.
     * Judged by what the range holds: on a first try that is Redis's test (the last entry is
     * past the ID); on a retry, a range that XDEL emptied keeps the client waiting where Redis
     * would answer an empty list.
     */
    private static CompletableFuture<Reply> serveOne(Invocation inv, Source src, Request r, StreamId gt, long count) {
        StreamValue s = src.stream();
        if (s == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (src.group() == null) {
            if (s.length() == 0 || gt.next() == null) {
                return CompletableFuture.completedFuture(null);
            }
            return s.range(gt.next(), StreamId.MAX, count, false)
                    .thenApply(list -> list.isEmpty() ? null : StreamCommands.entries(list));
        }
        ConsumerGroup g = src.group();
        if (gt != null) {
            // History: the consumer's pending entries after gt.
            return g.touchConsumer(r.consumer, inv.now(), true).thenCompose(created ->
                    history(inv, s, g, r.consumer, gt.next() == null ? null : gt.next(), count));
        }
        if (s.length() == 0 || g.lastId().next() == null) {
            return CompletableFuture.completedFuture(null);
        }
        return s.range(g.lastId().next(), StreamId.MAX, count, false).thenCompose(list -> {
            if (list.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            return g.touchConsumer(r.consumer, inv.now(), true)
                    .thenCompose(created -> deliver(inv, s, g, r.consumer, list, r.noack))
                    .thenApply(v -> StreamCommands.entries(list));
        });
    }

    /** Delivers new entries to {@code consumer}: moves the group's last ID and entries-read, and (unless NOACK) the PEL. */
    static CompletableFuture<Void> deliver(Invocation inv, StreamValue s, ConsumerGroup g, byte[] consumer,
                                           List<StreamEntry> list, boolean noack) {
        CompletableFuture<StreamId> first = s.firstId();
        List<CompletableFuture<PendingEntry>> old = new ArrayList<>();
        if (!noack) {
            for (StreamEntry e : list) {
                old.add(g.pending(e.id()));
            }
        }
        return CompletableFuture.allOf(old.toArray(new CompletableFuture[0])).thenCombine(first, (ignored, firstId) -> {
            long now = inv.now();
            for (int i = 0; i < list.size(); i++) {
                StreamId id = list.get(i).id();
                if (id.compareTo(g.lastId()) > 0) {
                    g.set(id, EntriesRead.afterDelivering(s.header(), firstId, g.entriesRead(), id));
                }
                if (!noack) {
                    g.putPending(new PendingEntry(id, now, 1, consumer), old.get(i).join());
                }
            }
            g.save();
            s.save();
            return null;
        });
    }

    /** The consumer's pending entries from {@code from} on: [id, fields] or [id, nil] for a deleted entry. */
    private static CompletableFuture<Reply> history(Invocation inv, StreamValue s, ConsumerGroup g, byte[] consumer,
                                                    StreamId from, long count) {
        if (from == null) {
            s.save();
            return CompletableFuture.completedFuture(Reply.EMPTY_ARRAY);
        }
        int limit = count <= 0 || count > Integer.MAX_VALUE ? 0 : (int) count;
        return g.consumerPending(consumer, from, StreamId.MAX, limit).thenCompose(ids -> {
            List<CompletableFuture<StreamEntry>> entries = new ArrayList<>();
            List<CompletableFuture<PendingEntry>> pending = new ArrayList<>();
            for (StreamId id : ids) {
                entries.add(s.entry(id));
                pending.add(g.pending(id));
            }
            return CompletableFuture.allOf(entries.toArray(new CompletableFuture[0]))
                    .thenCombine(CompletableFuture.allOf(pending.toArray(new CompletableFuture[0])), (a, b) -> {
                        List<Reply> out = new ArrayList<>();
                        for (int i = 0; i < ids.size(); i++) {
                            StreamEntry e = entries.get(i).join();
                            if (e == null) {
                                out.add(Reply.array(ids.get(i).reply(), Reply.NULL_ARRAY));
                            } else {
                                PendingEntry p = pending.get(i).join();
                                g.putPending(p.deliveredTo(consumer, inv.now(), p.deliveryCount() + 1), p);
                                out.add(e.reply());
                            }
                        }
                        s.save();
                        return Reply.array(out);
                    });
        });
    }

    /**
     * A try after a change of one of the keys: the first stream (in key order) that has
     * entries for the client, alone in the reply; null to keep waiting. For XREADGROUP a key
     * that is no longer a stream, or a group that is gone, ends the wait with Redis's errors.
     */
    private static CompletableFuture<Reply> retry(Invocation inv, Transaction tr, Request r) {
        return retryFrom(inv, tr, r, 0);
    }

    private static CompletableFuture<Reply> retryFrom(Invocation inv, Transaction tr, Request r, int i) {
        if (i >= r.keys.size()) {
            return CompletableFuture.completedFuture(null);
        }
        byte[] key = r.keys.get(i);
        return inv.server().keys().get(tr, inv.db(), key, inv.now()).thenCompose(meta -> {
            boolean stream = meta != null && meta.type() == io.strata.redis.keyspace.RedisType.STREAM;
            if (!stream) {
                if (r.group != null) {
                    throw new RedisException("UNBLOCKED the stream key no longer exists");
                }
                return retryFrom(inv, tr, r, i + 1);
            }
            StreamValue s = StreamValue.of(tr, inv.server().keys(), inv.db(), key, meta);
            long count = r.count != 0 ? r.count : BLOCKED_DEFAULT_COUNT;
            CompletableFuture<ConsumerGroup> group = r.group == null ? CompletableFuture.completedFuture(null)
                    : ConsumerGroup.load(s, r.group).thenApply(g -> {
                        if (g == null) {
                            throw new RedisException("NOGROUP the consumer group this client was blocked on no longer exists");
                        }
                        return g;
                    });
            return group.thenCompose(g -> serveOne(inv, new Source(key, s, g), r, g == null ? r.resolved[i] : null, count))
                    .thenCompose(entries -> entries == null ? retryFrom(inv, tr, r, i + 1)
                            : CompletableFuture.completedFuture(pairsReply(inv, List.of(Reply.bulk(key), entries))));
        });
    }
}
