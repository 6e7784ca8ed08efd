package io.strata.redis.pubsub;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.GlobPattern;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.protocol.RedisException;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How many clients, over every server process, subscribe to each channel, pattern and shard
 * channel ({@code Q 'n'}, {@code Q 'm'} and, for long names, {@code Q 'l'} of {@link
 * PubSubKeys}). PUBLISH's reply and PUBSUB NUMSUB / NUMPAT / CHANNELS / SHARDCHANNELS /
 * SHARDNUMSUB read it.
 *
 * <p>Changes are ADDs (then COMPARE_AND_CLEAR at zero, so that no count of 0 is kept), which
 * never conflict with each other. PUBLISH reads the counts it sums without snapshot, so a
 * subscription whose registration commits while a publish is in flight makes that publish
 * retry: a publish counts exactly the subscriptions registered before it in commit order —
 * which are exactly those the reader delivers it to ({@link PubSubHub}).
 *
 * <h2>Long names</h2>
 * A name too long to be a key is counted under its id (head and SHA-256) and kept whole under
 * {@code Q 'l' id} while its count is not 0: every registration writes it (a blind write of the
 * same bytes), and the unregistration that takes the count to 0 clears it. That one reads the
 * count after its ADD, so a registration committing meanwhile makes it conflict and retry:
 * whichever commits last, the name is there exactly when the count is. Short names cost what
 * they did: blind ADDs, no read.
 *
 * <p>Concurrency: stateless; every method works inside the caller's transaction.
 */
final class SubscriptionRegistry {
    /**
     * The longest name a subscription takes: its name is written in the registering
     * transaction, as a string value is ({@link LargeValues#MAX_IN_TRANSACTION}). PUBLISH takes
     * channel and message up to 9,900,000 bytes together, so every channel it can publish to
     * up to this length can be subscribed.
     */
    static final int MAX_NAME = LargeValues.MAX_IN_TRANSACTION;
    /**
     * What one (un)registration transaction may write, by {@link #transactionBytes}: under
     * FoundationDB's 10,000,000 bytes with room for the estimate's slack (a batch of one name of
     * {@link #MAX_NAME} bytes comes to about 9,100,000).
     */
    static final long BATCH_BYTES = 9_000_000;
    /** FoundationDB's size of a mutation and of a conflict range beside their bytes ({@code CommitSize}), rounded up. */
    private static final int ENTRY_OVERHEAD = 48;
    private static final byte[] ZERO = PubSubKeys.littleEndian(0);

    private final PubSubKeys keys;

    SubscriptionRegistry(PubSubKeys keys) {
        this.keys = keys;
    }

    /** Refuses, before anything changes, a name longer than a subscription takes. */
    static void checkName(byte[] name) {
        if (name.length > MAX_NAME) {
            throw new RedisException("ERR channel name too long: " + name.length + " bytes, more than the " + MAX_NAME
                    + " a subscription keeps in the database");
        }
    }

    /**
     * Adds {@code delta} to the counts of {@code names} for {@code process} and overall;
     * completes when a long name whose count went to 0 has been cleared.
     */
    CompletableFuture<Void> change(Transaction tr, byte[] process, Iterable<ChannelName> names, long delta) {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        for (ChannelName c : names) {
            byte[] name = c.bytes();
            byte[] id = keys.id(c.kind(), name);
            if (delta > 0 && PubSubKeys.isLong(id)) {
                writeName(tr, id, name);
            }
            add(tr, keys.processCountKey(process, id), delta);
            pending.add(addToTotal(tr, id, delta));
        }
        return allOf(pending);
    }

    /**
     * Splits {@code subs} into runs, in order, that one transaction each can register
     * ({@code delta > 0}) or unregister ({@link #BATCH_BYTES}); a run holds at least one.
     */
    List<List<Subscription>> batches(List<Subscription> subs, long delta) {
        List<List<Subscription>> out = new ArrayList<>();
        List<Subscription> run = new ArrayList<>();
        long bytes = 0;
        for (Subscription s : subs) {
            long b = transactionBytes(s.name, delta > 0);
            if (!run.isEmpty() && bytes + b > BATCH_BYTES) {
                out.add(run);
                run = new ArrayList<>();
                bytes = 0;
            }
            run.add(s);
            bytes += b;
        }
        if (!run.isEmpty()) {
            out.add(run);
        }
        return out;
    }

    /**
     * What registering (or unregistering) {@code c} adds to a transaction's size,
     * over-estimated from FoundationDB's accounting ({@code CommitSize}): each count key written
     * counts four times (two mutations — ADD and COMPARE_AND_CLEAR — and both ends of its write
     * conflict range) with an overhead each; a registered long name's parts three times with
     * their bytes; an unregistered one's read of its count and clear of its name six times.
     */
    long transactionBytes(ChannelName c, boolean registering) {
        int length = c.name().remaining();
        boolean isShort = keys.fitsInKey(length);
        long key = keys.longestKey(isShort ? 1 + length : PubSubKeys.LONG_ID);
        long counts = 2 * (4 * key + 4 * ENTRY_OVERHEAD + 16);
        if (isShort) {
            return counts;
        }
        if (!registering) {
            return counts + 6 * key + 6 * ENTRY_OVERHEAD;
        }
        long parts = Math.max(1, (length + PubSubKeys.NAME_PART - 1) / PubSubKeys.NAME_PART);
        return counts + length + parts * (3 * key + 3 * ENTRY_OVERHEAD);
    }

    /** Writes the name of long id {@code id} in parts (the same bytes whoever writes them). */
    private void writeName(Transaction tr, byte[] id, byte[] name) {
        int parts = Math.max(1, (name.length + PubSubKeys.NAME_PART - 1) / PubSubKeys.NAME_PART);
        for (int part = 0; part < parts; part++) {
            int from = part * PubSubKeys.NAME_PART;
            int to = Math.min(name.length, from + PubSubKeys.NAME_PART);
            tr.set(keys.nameKey(id, part), Arrays.copyOfRange(name, from, to));
        }
    }

    private static void add(Transaction tr, byte[] key, long delta) {
        tr.mutate(MutationType.ADD, key, PubSubKeys.littleEndian(delta));
        if (delta < 0) {
            tr.mutate(MutationType.COMPARE_AND_CLEAR, key, ZERO);
        }
    }

    /** Adds {@code delta} to the overall count of {@code id}; a long name whose count is then gone is cleared too. */
    private CompletableFuture<Void> addToTotal(Transaction tr, byte[] id, long delta) {
        byte[] key = keys.countKey(id);
        add(tr, key, delta);
        if (delta >= 0 || !PubSubKeys.isLong(id)) {
            return CompletableFuture.completedFuture(null);
        }
        return tr.get(key).thenAccept(count -> {
            if (count == null) {
                tr.clear(keys.nameRange(id));
            }
        });
    }

    /** PUBLISH / SPUBLISH's reply: subscribers of the channel, plus (not for shard channels) of each matching pattern. */
    CompletableFuture<Long> receivers(Transaction tr, ChannelKind kind, byte[] channel) {
        CompletableFuture<Long> direct = tr.get(keys.countKey(kind, channel)).thenApply(PubSubKeys::littleEndian);
        if (kind != ChannelKind.CHANNEL) {
            return direct;
        }
        CompletableFuture<Long> viaPatterns = counts(tr, ChannelKind.PATTERN).thenApply(counts -> {
            long n = 0;
            for (Count c : counts) {
                if (GlobPattern.matches(c.name, channel)) {
                    n += c.count;
                }
            }
            return n;
        });
        return direct.thenCombine(viaPatterns, Long::sum);
    }

    /** The subscriber count of one channel (PUBSUB NUMSUB / SHARDNUMSUB). */
    CompletableFuture<Long> count(ReadTransaction tr, ChannelKind kind, byte[] name) {
        return tr.get(keys.countKey(kind, name)).thenApply(PubSubKeys::littleEndian);
    }

    /** The channels (or patterns) with at least one subscriber, those matching {@code pattern} if given. */
    CompletableFuture<List<byte[]>> active(ReadTransaction tr, ChannelKind kind, byte[] pattern) {
        return counts(tr, kind).thenApply(counts -> {
            List<byte[]> names = new ArrayList<>();
            for (Count c : counts) {
                if (pattern == null || GlobPattern.matches(pattern, c.name)) {
                    names.add(c.name);
                }
            }
            return names;
        });
    }

    /** A name with subscribers and how many. */
    private record Count(byte[] name, long count) {
    }

    /** Every count of {@code kind} with its name: short names from their keys, long ones read from {@code Q 'l'}. */
    private CompletableFuture<List<Count>> counts(ReadTransaction tr, ChannelKind kind) {
        return tr.getRange(keys.countRange(kind)).asList().thenCompose(rows -> {
            List<CompletableFuture<Count>> counts = new ArrayList<>(rows.size());
            for (KeyValue kv : rows) {
                byte[] id = keys.idOfCount(kv.getKey());
                long n = PubSubKeys.littleEndian(kv.getValue());
                if (PubSubKeys.isLong(id)) {
                    counts.add(readName(tr, id).thenApply(name -> new Count(name, n)));
                } else {
                    counts.add(CompletableFuture.completedFuture(new Count(PubSubKeys.nameOfShortId(id), n)));
                }
            }
            return allOf(counts).thenApply(ignored -> {
                List<Count> out = new ArrayList<>(counts.size());
                for (CompletableFuture<Count> c : counts) {
                    out.add(c.join());
                }
                return out;
            });
        });
    }

    /** The name of long id {@code id}, put together from its parts. */
    private CompletableFuture<byte[]> readName(ReadTransaction tr, byte[] id) {
        return tr.getRange(keys.nameRange(id)).asList().thenApply(parts -> {
            ByteArrayOutputStream name = new ByteArrayOutputStream();
            for (KeyValue kv : parts) {
                name.writeBytes(kv.getValue());
            }
            return name.toByteArray();
        });
    }

    /**
     * Makes {@code process}'s share equal to {@code local} (and the overall counts follow):
     * used when a process finds it was taken for dead and its share removed. Each count moves
     * by the difference, so registrations that landed meanwhile are not counted twice.
     */
    CompletableFuture<Void> reconcile(Transaction tr, byte[] process, Map<ChannelName, Long> local) {
        return tr.getRange(keys.processCountRange(process)).asList().thenCompose(rows -> {
            Map<ByteBuffer, Long> stored = new HashMap<>();
            for (KeyValue kv : rows) {
                stored.put(ByteBuffer.wrap(keys.idOfProcessCount(kv.getKey())), PubSubKeys.littleEndian(kv.getValue()));
            }
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            for (Map.Entry<ChannelName, Long> e : local.entrySet()) {
                ByteBuffer id = ByteBuffer.wrap(keys.id(e.getKey().kind(), e.getKey().bytes()));
                long delta = e.getValue() - stored.getOrDefault(id, 0L);
                stored.remove(id);
                if (delta != 0) {
                    pending.add(change(tr, process, List.of(e.getKey()), delta));
                }
            }
            // Counted in the database, no longer here: taken away by id alone.
            for (Map.Entry<ByteBuffer, Long> e : stored.entrySet()) {
                byte[] id = e.getKey().array();
                add(tr, keys.processCountKey(process, id), -e.getValue());
                pending.add(addToTotal(tr, id, -e.getValue()));
            }
            return allOf(pending);
        });
    }

    /** Removes a dead process's share from every count, and its own records. */
    CompletableFuture<Void> removeProcess(Transaction tr, byte[] process) {
        return tr.getRange(keys.processCountRange(process)).asList().thenCompose(rows -> {
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            for (KeyValue kv : rows) {
                pending.add(addToTotal(tr, keys.idOfProcessCount(kv.getKey()), -PubSubKeys.littleEndian(kv.getValue())));
            }
            tr.clear(keys.processCountRange(process));
            return allOf(pending);
        });
    }

    private static CompletableFuture<Void> allOf(List<? extends CompletableFuture<?>> futures) {
        return CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0]));
    }
}
