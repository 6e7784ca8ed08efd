package io.strata.redis.streams;

import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.rdb.RdbValue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads a whole stream for DUMP ({@link RdbValue.StreamData}): its entries with the nodes they
 * sit in, its header, and every group with its PEL and consumers, in the caller's transaction
 * (one consistent snapshot, bounded by FoundationDB's 5-second transaction lifetime).
 */
public final class DumpedStream {
    private DumpedStream() {
    }

    public static CompletableFuture<RdbValue> read(Transaction tr, KeyStore keys, int db, KeyMeta meta) {
        StreamValue s = StreamValue.of(tr, keys, db, null, meta);
        StreamHeader h = s.header();
        CompletableFuture<List<RdbValue.StreamEntry>> entries = s.allWithNodes().thenApply(all -> {
            List<RdbValue.StreamEntry> out = new ArrayList<>(all.size());
            for (StreamValue.NodeEntry e : all) {
                // Node numbers here start at 1 and only grow; the payload numbers nodes from 0.
                out.add(new RdbValue.StreamEntry(id(e.entry().id()), e.entry().fieldsAndValues(), (int) Math.min(e.node(), Integer.MAX_VALUE)));
            }
            return out;
        });
        CompletableFuture<List<RdbValue.StreamGroup>> groups = ConsumerGroup.names(s).thenCompose(names -> {
            List<CompletableFuture<RdbValue.StreamGroup>> each = new ArrayList<>(names.size());
            for (byte[] name : names) {
                each.add(ConsumerGroup.load(s, name).thenCompose(DumpedStream::group));
            }
            return CompletableFuture.allOf(each.toArray(new CompletableFuture[0])).thenApply(v -> {
                List<RdbValue.StreamGroup> out = new ArrayList<>(each.size());
                each.forEach(f -> out.add(f.join()));
                return out;
            });
        });
        return entries.thenCombine(groups, (e, g) -> {
            long tailFill = h.length() == 0 ? 0 : h.tailFill();
            return new RdbValue.StreamData(e, (int) Math.min(h.tailNode(), Integer.MAX_VALUE), tailFill, id(h.lastId()),
                    id(h.maxDeletedId()), h.entriesAdded(), g);
        });
    }

    private static CompletableFuture<RdbValue.StreamGroup> group(ConsumerGroup g) {
        CompletableFuture<List<PendingEntry>> pel = g.pendingRange(StreamId.MIN, StreamId.MAX, 0);
        return pel.thenCombine(g.consumers(), (pending, consumers) -> {
            List<RdbValue.StreamPending> p = new ArrayList<>(pending.size());
            for (PendingEntry e : pending) {
                p.add(new RdbValue.StreamPending(id(e.id()), e.deliveryTime(), e.deliveryCount(), e.consumer()));
            }
            List<RdbValue.StreamConsumer> c = new ArrayList<>(consumers.size());
            for (ConsumerGroup.Consumer x : consumers) {
                c.add(new RdbValue.StreamConsumer(x.name(), x.seenTime()));
            }
            return new RdbValue.StreamGroup(g.name, id(g.lastId()), g.entriesRead(), p, c);
        });
    }

    private static RdbValue.StreamId id(StreamId id) {
        return new RdbValue.StreamId(id.ms(), id.seq());
    }
}
