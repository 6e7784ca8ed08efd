package io.strata.redis.streams;

import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.rdb.RdbValue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a stream decoded from a DUMP payload ({@link RdbValue.StreamData}) in this server's
 * stream layout (see {@link StreamValue} and {@link ConsumerGroup}): every live entry with the
 * radix-tree node it sat in (payload node <i>i</i> is node <i>i</i>+1 here, and the last node's
 * fill is kept, so {@code ~} trimming and later appends group entries as Redis would after the
 * same RESTORE), the header, each group with its consumers and PEL.
 *
 * <p>A payload from before Redis 7.0 carries no entries-read counters: each group's is
 * estimated from its last-delivered ID as Redis's {@code streamEstimateDistanceFromFirstEverEntry}
 * does on load ({@link EntriesRead#estimate}).
 *
 * <p>Concurrency: everything goes under an object id just allocated, which no other
 * transaction writes, so nothing is read; the key's metadata is written last through
 * {@link KeyStore#put}, replacing what the caller read.
 */
public final class RestoredStream {
    private RestoredStream() {
    }

    /**
     * What writing {@code s} adds to a transaction's size, estimated as FoundationDB counts it
     * ({@code written} gives one key's share for a key and value length); refuses an entry
     * larger than one stream entry may be.
     */
    public static long bytesToStore(RdbValue.StreamData s, int objectKeyBytes, java.util.function.LongBinaryOperator written) {
        long bytes = 0;
        for (RdbValue.StreamEntry e : s.entries()) {
            StreamValue.checkFits(e.fieldsAndValues());
            long fields = 4;
            for (byte[] b : e.fieldsAndValues()) {
                fields += 4 + b.length;
            }
            bytes += written.applyAsLong(objectKeyBytes + 20, fields + 12) + fields / StreamValue.CHUNK * 100;
        }
        for (RdbValue.StreamGroup g : s.groups()) {
            bytes += written.applyAsLong(objectKeyBytes + g.name().length + 4, 24);
            for (RdbValue.StreamConsumer c : g.consumers()) {
                bytes += 2 * written.applyAsLong(objectKeyBytes + g.name().length + c.name().length + 6, 8);
            }
            for (RdbValue.StreamPending p : g.pending()) {
                int k = objectKeyBytes + g.name().length + p.consumer().length + 24;
                bytes += written.applyAsLong(k, 16 + p.consumer().length) + written.applyAsLong(k, 0);
            }
        }
        return bytes;
    }

    /** Writes {@code s} at {@code key} (replacing {@code old}, or null), expiring at {@code expireAt} (0: never). */
    public static CompletableFuture<Void> write(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old,
                                               RdbValue.StreamData s, long expireAt) {
        return keys.newObjectId(tr).thenAccept(id -> {
            StreamHeader header = new StreamHeader(s.entries().size(), id(s.lastId()), id(s.maxDeletedId()), s.entriesAdded(),
                    s.nodes(), s.tailFill());
            KeyMeta meta = new KeyMeta(RedisType.STREAM, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, header.encode()));
            StreamValue stream = StreamValue.fresh(tr, keys, db, key, meta);
            for (RdbValue.StreamEntry e : s.entries()) {
                stream.writeEntry(id(e.id()), e.fieldsAndValues(), e.node() + 1L);
            }
            StreamId first = s.entries().isEmpty() ? StreamId.MIN : id(s.entries().get(0).id());
            for (RdbValue.StreamGroup g : s.groups()) {
                StreamId last = id(g.lastId());
                long read = g.entriesRead() != null ? g.entriesRead() : EntriesRead.estimate(header, first, last);
                ConsumerGroup group = ConsumerGroup.create(stream, g.name(), last, read);
                group.save();
                tr.set(stream.elementKey(ConsumerGroup.CONSUMER_COUNT, g.name()), le(g.consumers().size()));
                for (RdbValue.StreamConsumer c : g.consumers()) {
                    tr.set(stream.elementKey(StreamValue.CONSUMER, g.name(), c.name()),
                            ByteBuffer.allocate(8).putLong(c.seenTime()).array());
                }
                for (RdbValue.StreamPending p : g.pending()) {
                    group.putPending(new PendingEntry(id(p.id()), p.deliveryTime(), p.deliveryCount(), p.consumer()), null);
                }
            }
            keys.put(tr, db, key, old, meta);
        });
    }

    private static StreamId id(RdbValue.StreamId id) {
        return new StreamId(id.ms(), id.seq());
    }

    private static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }
}
