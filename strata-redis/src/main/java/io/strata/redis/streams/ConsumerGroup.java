package io.strata.redis.streams;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One consumer group of a stream, inside a command's transaction: its record, its consumers
 * and its pending entries list (PEL).
 *
 * <h2>Key layout (under the stream's object, see {@link StreamValue})</h2>
 * <pre>
 * ("g", group)                 -&gt; last-delivered-id[16] entries-read[8] (-1: unknown)
 * ("n", group)                 -&gt; the PEL's size: 8 bytes little-endian, atomic ADD only
 * ("m", group)                 -&gt; the number of consumers: likewise
 * ("c", group, consumer)       -&gt; seen-time[8] (Unix ms)
 * ("n", group, consumer)       -&gt; the consumer's PEL size: likewise
 * ("p", group, id[16])         -&gt; delivery-time[8] delivery-count[8] consumer
 * ("q", group, consumer, id[16]) -&gt; empty: the consumer's PEL
 * </pre>
 * Sizes move by atomic ADD, so a command that moves pending entries between consumers never
 * reads their counts; they are read only to be reported (XPENDING, XINFO). The group record is
 * written only when last-delivered-id or entries-read change.
 *
 * <p>Concurrency: commands read the records they change serializably (the group record, the
 * PEL entries they move or acknowledge), so two commands that deliver or claim the same entry
 * conflict and one retries; the counters are blind writes and never conflict.
 */
final class ConsumerGroup {
    static final String GROUP_COUNT = "n";
    static final String CONSUMER_COUNT = "m";
    private static final byte[] ONE = le(1);
    private static final byte[] MINUS_ONE = le(-1);

    final StreamValue s;
    final byte[] name;
    private StreamId lastId;
    private long entriesRead;
    private final StreamId readLastId;
    private final long readEntriesRead;

    private ConsumerGroup(StreamValue s, byte[] name, StreamId lastId, long entriesRead, boolean isNew) {
        this.s = s;
        this.name = name;
        this.lastId = lastId;
        this.entriesRead = entriesRead;
        this.readLastId = isNew ? null : lastId;
        this.readEntriesRead = entriesRead;
    }

    /** The group {@code name} of stream {@code s}, or null. */
    static CompletableFuture<ConsumerGroup> load(StreamValue s, byte[] name) {
        return s.tr.get(s.elementKey(StreamValue.GROUP, name)).thenApply(v -> {
            if (v == null) {
                return null;
            }
            ByteBuffer b = ByteBuffer.wrap(v);
            return new ConsumerGroup(s, name, new StreamId(b.getLong(), b.getLong()), b.getLong(), false);
        });
    }

    /** A new group (the caller checked it is absent); written by {@link #save}. */
    static ConsumerGroup create(StreamValue s, byte[] name, StreamId lastId, long entriesRead) {
        return new ConsumerGroup(s, name, lastId, entriesRead, true);
    }

    /** Every group's name, in name order. */
    static CompletableFuture<List<byte[]>> names(StreamValue s) {
        return s.tr.getRange(s.elementRange(StreamValue.GROUP)).asList().thenApply(kvs -> {
            List<byte[]> out = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                out.add(s.object.unpack(kv.getKey()).getBytes(1));
            }
            return out;
        });
    }

    StreamId lastId() {
        return lastId;
    }

    long entriesRead() {
        return entriesRead;
    }

    void set(StreamId last, long read) {
        this.lastId = last;
        this.entriesRead = read;
    }

    /** Writes the group record if it is new or changed. */
    void save() {
        if (readLastId == null || !readLastId.equals(lastId) || readEntriesRead != entriesRead) {
            s.tr.set(s.elementKey(StreamValue.GROUP, name),
                    ByteBuffer.allocate(24).put(lastId.encode()).putLong(entriesRead).array());
        }
    }

    /** Removes the group, its consumers and its PEL. */
    void destroy() {
        s.tr.clear(s.elementKey(StreamValue.GROUP, name));
        s.tr.clear(s.elementKey(GROUP_COUNT, name));
        s.tr.clear(s.elementRange(GROUP_COUNT, name));
        s.tr.clear(s.elementKey(CONSUMER_COUNT, name));
        s.tr.clear(s.elementRange(StreamValue.CONSUMER, name));
        s.tr.clear(s.elementRange(StreamValue.PENDING, name));
        s.tr.clear(s.elementRange(StreamValue.CONSUMER_PENDING, name));
    }

    // ---- counts

    CompletableFuture<Long> pelSize() {
        return counter(s.elementKey(GROUP_COUNT, name));
    }

    CompletableFuture<Long> consumerCount() {
        return counter(s.elementKey(CONSUMER_COUNT, name));
    }

    CompletableFuture<Long> pendingOf(byte[] consumer) {
        return counter(s.elementKey(GROUP_COUNT, name, consumer));
    }

    private CompletableFuture<Long> counter(byte[] key) {
        return s.tr.get(key).thenApply(v -> v == null ? 0L : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong());
    }

    // ---- consumers

    /** A consumer's seen-time, or null if it does not exist. */
    CompletableFuture<Long> seenTime(byte[] consumer) {
        return s.tr.get(consumerKey(consumer)).thenApply(v -> v == null ? null : ByteBuffer.wrap(v).getLong());
    }

    /** Every consumer's name and seen-time, in name order. */
    CompletableFuture<List<Consumer>> consumers() {
        return s.tr.getRange(s.elementRange(StreamValue.CONSUMER, name)).asList().thenApply(kvs -> {
            List<Consumer> out = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                out.add(new Consumer(s.object.unpack(kv.getKey()).getBytes(2), ByteBuffer.wrap(kv.getValue()).getLong()));
            }
            return out;
        });
    }

    /** A consumer and when it was last seen. */
    record Consumer(byte[] name, long seenTime) {
    }

    /**
     * Looks the consumer up, creating it if absent, and (when {@code refresh}) marks it seen
     * at {@code now}, as Redis's streamLookupConsumer / streamCreateConsumer: whether it was
     * created.
     */
    CompletableFuture<Boolean> touchConsumer(byte[] consumer, long now, boolean refresh) {
        return seenTime(consumer).thenApply(seen -> {
            if (seen == null) {
                // As Redis's streamCreateConsumer: XGROUP CREATECONSUMER, XREADGROUP, XCLAIM and XAUTOCLAIM.
                s.tr.mutate(MutationType.ADD, s.elementKey(CONSUMER_COUNT, name), ONE);
                s.keyspaceEvent("xgroup-createconsumer");
            }
            if (seen == null || refresh) {
                s.tr.set(consumerKey(consumer), ByteBuffer.allocate(8).putLong(now).array());
            }
            return seen == null;
        });
    }

    /** Removes a consumer and its pending entries (from the group's PEL too): how many it had. */
    CompletableFuture<Long> deleteConsumer(byte[] consumer) {
        Range own = s.elementRange(StreamValue.CONSUMER_PENDING, name, consumer);
        return s.tr.getRange(own).asList().thenApply(kvs -> {
            for (KeyValue kv : kvs) {
                byte[] id = s.object.unpack(kv.getKey()).getBytes(3);
                s.tr.clear(s.elementKey(StreamValue.PENDING, name, id));
            }
            s.tr.clear(own);
            s.tr.clear(consumerKey(consumer));
            s.tr.clear(s.elementKey(GROUP_COUNT, name, consumer));
            s.tr.mutate(MutationType.ADD, s.elementKey(CONSUMER_COUNT, name), MINUS_ONE);
            if (!kvs.isEmpty()) {
                s.tr.mutate(MutationType.ADD, s.elementKey(GROUP_COUNT, name), le(-kvs.size()));
            }
            return (long) kvs.size();
        });
    }

    private byte[] consumerKey(byte[] consumer) {
        return s.elementKey(StreamValue.CONSUMER, name, consumer);
    }

    // ---- the PEL

    /** The pending entry {@code id}, or null. */
    CompletableFuture<PendingEntry> pending(StreamId id) {
        return s.tr.get(s.elementKey(StreamValue.PENDING, name, id.encode()))
                .thenApply(v -> v == null ? null : PendingEntry.decode(id, v));
    }

    /** Pending entries from {@code from} to {@code to} inclusive, at most {@code limit} (0: all). */
    CompletableFuture<List<PendingEntry>> pendingRange(StreamId from, StreamId to, int limit) {
        if (from.compareTo(to) > 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        byte[] end = s.elementKey(StreamValue.PENDING, name, to.encode());
        Range r = new Range(s.elementKey(StreamValue.PENDING, name, from.encode()), Arrays.copyOf(end, end.length + 1));
        return s.tr.getRange(r, limit).asList().thenApply(kvs -> {
            List<PendingEntry> out = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                out.add(PendingEntry.decode(StreamId.decode(s.object.unpack(kv.getKey()).getBytes(2)), kv.getValue()));
            }
            return out;
        });
    }

    /** The first or last pending entry's ID, or null when the PEL is empty. */
    CompletableFuture<StreamId> pendingEdge(boolean first) {
        return s.tr.getRange(s.elementRange(StreamValue.PENDING, name), 1, !first).asList()
                .thenApply(kvs -> kvs.isEmpty() ? null : StreamId.decode(s.object.unpack(kvs.get(0).getKey()).getBytes(2)));
    }

    /** A consumer's pending IDs from {@code from} on, at most {@code limit} (0: all). */
    CompletableFuture<List<StreamId>> consumerPending(byte[] consumer, StreamId from, StreamId to, int limit) {
        Range all = s.elementRange(StreamValue.CONSUMER_PENDING, name, consumer);
        byte[] end = s.elementKey(StreamValue.CONSUMER_PENDING, name, consumer, to.encode());
        Range r = new Range(s.elementKey(StreamValue.CONSUMER_PENDING, name, consumer, from.encode()),
                to.equals(StreamId.MAX) ? all.end : Arrays.copyOf(end, end.length + 1));
        return s.tr.getRange(r, limit).asList().thenApply(kvs -> {
            List<StreamId> out = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                out.add(StreamId.decode(s.object.unpack(kv.getKey()).getBytes(3)));
            }
            return out;
        });
    }

    /**
     * Records {@code entry} in the PEL, replacing {@code old} (what {@link #pending} read, or
     * null): moves it between consumers' PELs and keeps the sizes.
     */
    void putPending(PendingEntry entry, PendingEntry old) {
        byte[] id = entry.id().encode();
        if (old == null) {
            s.tr.mutate(MutationType.ADD, s.elementKey(GROUP_COUNT, name), ONE);
        }
        if (old == null || !Arrays.equals(old.consumer(), entry.consumer())) {
            if (old != null) {
                s.tr.clear(s.elementKey(StreamValue.CONSUMER_PENDING, name, old.consumer(), id));
                s.tr.mutate(MutationType.ADD, s.elementKey(GROUP_COUNT, name, old.consumer()), MINUS_ONE);
            }
            s.tr.set(s.elementKey(StreamValue.CONSUMER_PENDING, name, entry.consumer(), id), new byte[0]);
            s.tr.mutate(MutationType.ADD, s.elementKey(GROUP_COUNT, name, entry.consumer()), ONE);
        }
        s.tr.set(s.elementKey(StreamValue.PENDING, name, id), entry.encode());
    }

    /** Removes {@code old} (read with {@link #pending}) from the PEL and its consumer's. */
    void removePending(PendingEntry old) {
        byte[] id = old.id().encode();
        s.tr.clear(s.elementKey(StreamValue.PENDING, name, id));
        s.tr.clear(s.elementKey(StreamValue.CONSUMER_PENDING, name, old.consumer(), id));
        s.tr.mutate(MutationType.ADD, s.elementKey(GROUP_COUNT, name, old.consumer()), MINUS_ONE);
        s.tr.mutate(MutationType.ADD, s.elementKey(GROUP_COUNT, name), MINUS_ONE);
    }

    private static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }
}
