package io.strata.redis.pubsub;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.GlobPattern;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How many clients, over every server process, subscribe to each channel, pattern and shard
 * channel ({@code Q 'n'} and {@code Q 'm'} of {@link PubSubKeys}). PUBLISH's reply and
 * PUBSUB NUMSUB / NUMPAT / CHANNELS / SHARDCHANNELS / SHARDNUMSUB read it.
 *
 * <p>Changes are ADDs (then COMPARE_AND_CLEAR at zero, so that no count of 0 is kept), which
 * never conflict with each other. PUBLISH reads the counts it sums without snapshot, so a
 * subscription whose registration commits while a publish is in flight makes that publish
 * retry: a publish counts exactly the subscriptions registered before it in commit order —
 * which are exactly those the reader delivers it to ({@link PubSubHub}).
 *
 * <p>Concurrency: stateless; every method works inside the caller's transaction.
 */
final class SubscriptionRegistry {
    private static final byte[] ZERO = PubSubKeys.littleEndian(0);

    private final PubSubKeys keys;

    SubscriptionRegistry(PubSubKeys keys) {
        this.keys = keys;
    }

    /** Adds {@code delta} to the counts of {@code names} for {@code process} and overall. */
    void change(Transaction tr, byte[] process, Iterable<ChannelName> names, long delta) {
        for (ChannelName c : names) {
            add(tr, keys.countKey(c.kind(), c.bytes()), delta);
            add(tr, keys.processCountKey(process, c.kind(), c.bytes()), delta);
        }
    }

    private static void add(Transaction tr, byte[] key, long delta) {
        tr.mutate(MutationType.ADD, key, PubSubKeys.littleEndian(delta));
        if (delta < 0) {
            tr.mutate(MutationType.COMPARE_AND_CLEAR, key, ZERO);
        }
    }

    /** PUBLISH / SPUBLISH's reply: subscribers of the channel, plus (not for shard channels) of each matching pattern. */
    CompletableFuture<Long> receivers(Transaction tr, ChannelKind kind, byte[] channel) {
        CompletableFuture<Long> direct = tr.get(keys.countKey(kind, channel)).thenApply(PubSubKeys::littleEndian);
        if (kind != ChannelKind.CHANNEL) {
            return direct;
        }
        CompletableFuture<Long> viaPatterns = tr.getRange(keys.countRange(ChannelKind.PATTERN)).asList().thenApply(rows -> {
            long n = 0;
            for (KeyValue kv : rows) {
                if (GlobPattern.matches(keys.nameOfCount(kv.getKey()), channel)) {
                    n += PubSubKeys.littleEndian(kv.getValue());
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
        return tr.getRange(keys.countRange(kind)).asList().thenApply(rows -> {
            List<byte[]> names = new ArrayList<>();
            for (KeyValue kv : rows) {
                byte[] name = keys.nameOfCount(kv.getKey());
                if (pattern == null || GlobPattern.matches(pattern, name)) {
                    names.add(name);
                }
            }
            return names;
        });
    }

    /**
     * Makes {@code process}'s share equal to {@code local} (and the overall counts follow):
     * used when a process finds it was taken for dead and its share removed. Each count moves
     * by the difference, so registrations that landed meanwhile are not counted twice.
     */
    CompletableFuture<Void> reconcile(Transaction tr, byte[] process, Map<ChannelName, Long> local) {
        return tr.getRange(keys.processCountRange(process)).asList().thenAccept(rows -> {
            Map<ChannelName, Long> stored = new HashMap<>();
            for (KeyValue kv : rows) {
                byte[] countKey = keys.countKeyOfProcessCount(kv.getKey());
                byte[] name = keys.nameOfCount(countKey);
                ChannelKind kind = ChannelKind.ofTag(countKey[countKey.length - name.length - 1]);
                stored.put(ChannelName.of(kind, name), PubSubKeys.littleEndian(kv.getValue()));
            }
            Map<ChannelName, Long> all = new HashMap<>(stored);
            local.forEach(all::putIfAbsent);
            for (ChannelName c : all.keySet()) {
                long delta = local.getOrDefault(c, 0L) - stored.getOrDefault(c, 0L);
                if (delta != 0) {
                    change(tr, process, List.of(c), delta);
                }
            }
        });
    }

    /** Removes a dead process's share from every count, and its own records. */
    CompletableFuture<Void> removeProcess(Transaction tr, byte[] process) {
        return tr.getRange(keys.processCountRange(process)).asList().thenAccept(rows -> {
            for (KeyValue kv : rows) {
                add(tr, keys.countKeyOfProcessCount(kv.getKey()), -PubSubKeys.littleEndian(kv.getValue()));
            }
            tr.clear(keys.processCountRange(process));
        });
    }
}
