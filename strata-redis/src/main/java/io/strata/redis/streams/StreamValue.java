package io.strata.redis.streams;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One stream as a command sees it inside its transaction: its metadata and header
 * ({@link StreamHeader}), and its entries and consumer groups in its object subspace.
 *
 * <h2>Key layout</h2>
 * <pre>
 * P 'k' db key                        -&gt; KeyMeta: type stream, flag OBJECT, payload = object id
 *                                       + {@link StreamHeader} (length, last-generated-id,
 *                                       max-deleted-entry-id, entries-added)
 * P 'o' db id ("e", id[16])           -&gt; node[8] (see {@link StreamHeader}), chunks[4], then the
 *                                       entry's fields and values ({@link StreamEntry}), their
 *                                       first {@value #CHUNK} bytes when longer
 * P 'o' db id ("f", id[16], i)        -&gt; the next chunks of a long entry, i = 1..chunks
 * P 'o' db id ("g", group)            -&gt; a group ({@link GroupRecord}): last-delivered-id,
 *                                       entries-read, PEL size, number of consumers
 * P 'o' db id ("c", group, consumer)  -&gt; a consumer ({@link ConsumerRecord}): seen-time, PEL size
 * P 'o' db id ("p", group, id[16])    -&gt; the group's PEL ({@link PendingEntry}): delivery time,
 *                                       delivery count, owning consumer
 * P 'o' db id ("q", group, consumer, id[16]) -&gt; empty: the consumer's own PEL, by ID
 * </pre>
 * Elements are tuple-encoded under the object (IDs as 16 big-endian bytes), so entries sit in
 * ID order and XRANGE is a range read; groups, consumers and PELs in name and ID order, as
 * Redis's radix trees list them. Sizes are kept in the records, so no command counts by
 * scanning. A stream with no entries is kept (Redis keeps empty streams: XDEL and XTRIM
 * may empty one, and XGROUP CREATE MKSTREAM makes one).
 *
 * <h2>Concurrency</h2>
 * Every command reads the key's metadata serializably and every command that changes the
 * stream writes it or moves its stamp ({@link KeyStore#touch}): two writers of one stream
 * conflict on the metadata or on the records they both read and one retries, so the header's
 * counts always match the entries. Readers (XRANGE, XREAD) read the metadata and the range
 * they return, nothing else.
 */
public final class StreamValue {
    static final String ENTRY = "e";
    static final String GROUP = "g";
    static final String CONSUMER = "c";
    static final String PENDING = "p";
    static final String CONSUMER_PENDING = "q";
    static final String CHUNKS = "f";
    /** The encoded fields a value holds (FoundationDB's value limit is 100,000 bytes). */
    static final int CHUNK = 90_000;
    /** One entry is written in one transaction (FoundationDB's limit is 10 MB of writes). */
    static final int MAX_ENTRY_BYTES = 8_000_000;
    private static final int VALUE_HEADER = 12;

    final Transaction tr;
    final KeyStore keys;
    final int db;
    final byte[] key;
    private final KeyMeta meta;
    /** The metadata as read, null for a stream this command creates. */
    private final KeyMeta old;
    final Subspace object;
    private StreamHeader header;
    private final StreamHeader readHeader;

    /**
     * Publishes a stream keyspace event ({@code xgroup-createconsumer}) from where no command is
     * at hand; commands publish theirs through {@code Invocation.keyspaceEvent}.
     */
    void keyspaceEvent(String event) {
        keys.events().publish(tr, NotifyKeyspaceEvents.STREAM, event, db, key);
    }

    private StreamValue(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta meta, KeyMeta old, StreamHeader header) {
        this.tr = tr;
        this.keys = keys;
        this.db = db;
        this.key = key;
        this.meta = meta;
        this.old = old;
        this.object = keys.objectOf(db, meta);
        this.header = header;
        this.readHeader = old == null ? null : header;
    }

    /** The stream at {@code key}, or null if absent; WRONGTYPE for another type. */
    public static CompletableFuture<StreamValue> open(Transaction tr, KeyStore keys, int db, byte[] key, long now) {
        return keys.get(tr, db, key, now, RedisType.STREAM).thenApply(m -> m == null ? null : of(tr, keys, db, key, m));
    }

    /** As {@link #open}, deleting the key first if it has expired (for commands that write). */
    public static CompletableFuture<StreamValue> openForWrite(Transaction tr, KeyStore keys, int db, byte[] key, long now) {
        return keys.getForWrite(tr, db, key, now, RedisType.STREAM).thenApply(m -> m == null ? null : of(tr, keys, db, key, m));
    }

    static StreamValue of(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta m) {
        return new StreamValue(tr, keys, db, key, m, m, StreamHeader.decode(ObjectRef.header(m)));
    }

    /** A stream under the fresh object {@code meta} names, for writing it whole (RESTORE); its header is {@code meta}'s. */
    static StreamValue fresh(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta meta) {
        return new StreamValue(tr, keys, db, key, meta, null, StreamHeader.decode(ObjectRef.header(meta)));
    }

    /** A new empty stream at {@code key} (absent now), written by {@link #save}. */
    public static CompletableFuture<StreamValue> create(Transaction tr, KeyStore keys, int db, byte[] key) {
        return keys.newObjectId(tr).thenApply(id -> {
            KeyMeta m = new KeyMeta(RedisType.STREAM, KeyMeta.OBJECT, 0, ObjectRef.payload(id, StreamHeader.EMPTY.encode()));
            return new StreamValue(tr, keys, db, key, m, null, StreamHeader.EMPTY);
        });
    }

    public StreamHeader header() {
        return header;
    }

    void header(StreamHeader h) {
        this.header = h;
    }

    public long length() {
        return header.length();
    }

    /**
     * Writes the metadata when the header changed or the stream is new, else only moves the
     * key's stamp: called once by every command that changed the stream.
     */
    public void save() {
        if (old == null || !header.equals(readHeader)) {
            keys.put(tr, db, key, old, ObjectRef.withHeader(meta, header.encode()));
        } else {
            keys.touch(tr, db, key);
        }
    }

    // ---- keys of the object

    byte[] elementKey(Object... parts) {
        return object.pack(Tuple.from(parts));
    }

    Range elementRange(Object... prefix) {
        return object.range(Tuple.from(prefix));
    }

    private byte[] entryKey(StreamId id) {
        return elementKey(ENTRY, id.encode());
    }

    private StreamId idOfEntryKey(byte[] k) {
        return StreamId.decode(object.unpack(k).getBytes(1));
    }

    /** Keys from {@code from} to {@code to}, both inclusive. */
    private Range entries(StreamId from, StreamId to) {
        byte[] end = entryKey(to);
        return new Range(entryKey(from), Arrays.copyOf(end, end.length + 1));
    }

    // ---- entries

    /** The entry a value of the entries range holds, reading its further chunks if it has any. */
    private CompletableFuture<StreamEntry> entryOf(StreamId id, byte[] value) {
        int chunks = java.nio.ByteBuffer.wrap(value, 8, 4).getInt();
        byte[] first = Arrays.copyOfRange(value, VALUE_HEADER, value.length);
        if (chunks == 0) {
            return CompletableFuture.completedFuture(new StreamEntry(id, StreamEntry.decodeFields(first)));
        }
        return tr.getRange(elementRange(CHUNKS, id.encode())).asList().thenApply(rest -> {
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            all.writeBytes(first);
            rest.forEach(kv -> all.writeBytes(kv.getValue()));
            return new StreamEntry(id, StreamEntry.decodeFields(all.toByteArray()));
        });
    }

    /** Clears the further chunks of every entry up to {@code last} (inclusive). */
    private void clearChunksThrough(StreamId last) {
        byte[] end = elementKey(CHUNKS, last.encode());
        byte[] after = Arrays.copyOf(end, end.length + 1);
        after[end.length] = (byte) 0xff;
        tr.clear(new Range(elementRange(CHUNKS).begin, after));
    }

    private static long nodeOf(byte[] value) {
        return java.nio.ByteBuffer.wrap(value).getLong();
    }

    /**
     * Entries from {@code from} to {@code to} (inclusive), at most {@code count} (0: all), in
     * ID order or reversed.
     */
    public CompletableFuture<List<StreamEntry>> range(StreamId from, StreamId to, long count, boolean reverse) {
        if (from.compareTo(to) > 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        int limit = count <= 0 || count > Integer.MAX_VALUE ? 0 : (int) count;
        return tr.getRange(entries(from, to), limit, reverse).asList().thenCompose(kvs -> {
            List<CompletableFuture<StreamEntry>> out = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                out.add(entryOf(idOfEntryKey(kv.getKey()), kv.getValue()));
            }
            return CompletableFuture.allOf(out.toArray(new CompletableFuture[0])).thenApply(v -> {
                List<StreamEntry> entries = new ArrayList<>(out.size());
                out.forEach(f -> entries.add(f.join()));
                return entries;
            });
        });
    }

    /** An entry and the radix-tree node it sits in. */
    record NodeEntry(long node, StreamEntry entry) {
    }

    /** Every entry with its node, in ID order (DUMP). */
    CompletableFuture<List<NodeEntry>> allWithNodes() {
        return tr.getRange(entries(StreamId.MIN, StreamId.MAX)).asList().thenCompose(kvs -> {
            List<CompletableFuture<NodeEntry>> out = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                long node = nodeOf(kv.getValue());
                out.add(entryOf(idOfEntryKey(kv.getKey()), kv.getValue()).thenApply(e -> new NodeEntry(node, e)));
            }
            return CompletableFuture.allOf(out.toArray(new CompletableFuture[0])).thenApply(v -> {
                List<NodeEntry> entries = new ArrayList<>(out.size());
                out.forEach(f -> entries.add(f.join()));
                return entries;
            });
        });
    }

    /** The entry {@code id}, or null. */
    public CompletableFuture<StreamEntry> entry(StreamId id) {
        return tr.get(entryKey(id)).thenCompose(v -> v == null ? CompletableFuture.completedFuture(null) : entryOf(id, v));
    }

    /** The first (or last) entry, or null when empty. */
    public CompletableFuture<StreamEntry> edge(boolean first) {
        return range(StreamId.MIN, StreamId.MAX, 1, !first).thenApply(l -> l.isEmpty() ? null : l.get(0));
    }

    /** The first entry's ID, 0-0 when empty (Redis's recorded first id). */
    public CompletableFuture<StreamId> firstId() {
        if (header.length() == 0) {
            return CompletableFuture.completedFuture(StreamId.MIN);
        }
        return tr.getRange(entries(StreamId.MIN, StreamId.MAX), 1).asList()
                .thenApply(kvs -> kvs.isEmpty() ? StreamId.MIN : idOfEntryKey(kvs.get(0).getKey()));
    }

    /**
     * How many of Redis's radix-tree nodes the entries span (XINFO's radix-tree-keys): from the
     * first entry's node to the tail node; 0 when empty.
     */
    public CompletableFuture<Long> nodes() {
        if (header.length() == 0) {
            return CompletableFuture.completedFuture(0L);
        }
        return tr.getRange(entries(StreamId.MIN, StreamId.MAX), 1).asList()
                .thenApply(kvs -> kvs.isEmpty() ? 0L : header.tailNode() - nodeOf(kvs.get(0).getValue()) + 1);
    }

    /** Whether entry {@code id} exists. */
    public CompletableFuture<Boolean> exists(StreamId id) {
        return tr.get(entryKey(id)).thenApply(v -> v != null);
    }

    /** The stored size of an entry of these fields and values, checked before any write. */
    static void checkFits(List<byte[]> fieldsAndValues) {
        long n = 4;
        for (byte[] b : fieldsAndValues) {
            n += 4 + b.length;
        }
        if (n > MAX_ENTRY_BYTES) {
            throw new RedisException("ERR Elements are too large to be stored");
        }
    }

    /** Appends an entry whose ID is past the last one; the caller checked it. */
    public void append(StreamId id, List<byte[]> fieldsAndValues, long nodeEntries) {
        writeEntry(id, fieldsAndValues, header.nodeForAppend(nodeEntries));
        header = header.appended(id, nodeEntries);
    }

    /** Writes entry {@code id} as sitting in radix-tree node {@code node}, leaving the header to the caller. */
    void writeEntry(StreamId id, List<byte[]> fieldsAndValues, long node) {
        byte[] fields = StreamEntry.encodeFields(fieldsAndValues);
        int firstLength = Math.min(fields.length, CHUNK);
        int chunks = (fields.length - firstLength + CHUNK - 1) / CHUNK;
        byte[] value = java.nio.ByteBuffer.allocate(VALUE_HEADER + firstLength).putLong(node)
                .putInt(chunks).put(fields, 0, firstLength).array();
        tr.set(entryKey(id), value);
        for (int i = 1; i <= chunks; i++) {
            int from = firstLength + (i - 1) * CHUNK;
            tr.set(elementKey(CHUNKS, id.encode(), i), Arrays.copyOfRange(fields, from, Math.min(fields.length, from + CHUNK)));
        }
    }

    /** Removes the entries that exist among {@code ids} (XDEL): how many. */
    public CompletableFuture<Long> delete(List<StreamId> ids) {
        List<CompletableFuture<Boolean>> reads = new ArrayList<>();
        for (StreamId id : ids) {
            reads.add(exists(id));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            long deleted = 0;
            StreamId maxDeleted = header.maxDeletedId();
            java.util.Set<StreamId> seen = new java.util.HashSet<>();
            for (int i = 0; i < ids.size(); i++) {
                StreamId id = ids.get(i);
                if (reads.get(i).join() && seen.add(id)) {
                    tr.clear(entryKey(id));
                    tr.clear(elementRange(CHUNKS, id.encode()));
                    deleted++;
                    if (id.compareTo(maxDeleted) > 0) {
                        maxDeleted = id;
                    }
                }
            }
            header = header.deleted(deleted, maxDeleted);
            return deleted;
        });
    }

    /**
     * Removes the first {@code n} entries (at most the stream's length): a key selector finds
     * where they end (resolved by the database, no entry is transferred), one range clear
     * removes them and another their chunks.
     */
    CompletableFuture<Long> removeFirst(long n) {
        long removed = Math.min(n, header.length());
        if (removed <= 0) {
            return CompletableFuture.completedFuture(0L);
        }
        Range all = entries(StreamId.MIN, StreamId.MAX);
        if (removed == header.length()) {
            clearAll(all);
            return CompletableFuture.completedFuture(removed);
        }
        int offset = (int) Math.min(removed, Integer.MAX_VALUE);
        return tr.getKey(KeySelector.firstGreaterOrEqual(all.begin).add(offset)).thenApply(boundary -> {
            // The first entry kept: everything before it in the entries range goes.
            tr.clear(new Range(all.begin, boundary));
            StreamId kept = idOfEntryKey(boundary);
            StreamId last = kept.previous();
            if (last != null) {
                clearChunksThrough(last);
            }
            header = header.withLength(header.length() - removed);
            return removed;
        });
    }

    private void clearAll(Range entriesRange) {
        tr.clear(entriesRange);
        tr.clear(elementRange(CHUNKS));
        header = header.withLength(0);
    }

    /**
     * Approximate trimming: removes whole nodes from the head, each only if all its entries
     * pass {@code removable} (by position from the head and ID), the removed total stays
     * within {@code most} and {@code limit} (0: none); stops at the first node that may not go.
     * Reads the candidates and the entry after them, to know where their node ends.
     */
    CompletableFuture<Long> removeWholeNodes(long most, StreamId below, long limit) {
        long cap = limit > 0 ? Math.min(most, limit) : most;
        if (cap <= 0) {
            return CompletableFuture.completedFuture(0L);
        }
        int read = cap >= Integer.MAX_VALUE ? 0 : (int) cap + 1;
        Range all = entries(StreamId.MIN, StreamId.MAX);
        CompletableFuture<List<KeyValue>> candidates;
        if (below == null) {
            candidates = tr.getRange(all, read).asList();
        } else {
            // MINID: only entries below the ID can go, and the first one after them tells
            // whether their last node is complete.
            StreamId to = below.previous();
            CompletableFuture<List<KeyValue>> under = to == null ? CompletableFuture.completedFuture(List.of())
                    : tr.getRange(entries(StreamId.MIN, to), read).asList();
            CompletableFuture<List<KeyValue>> next = tr.getRange(entries(below, StreamId.MAX), 1).asList();
            candidates = under.thenCombine(next, (u, n) -> {
                List<KeyValue> both = new ArrayList<>(u);
                both.addAll(n);
                return both;
            });
        }
        return candidates.thenApply(kvs -> {
            long removed = 0;
            int i = 0;
            byte[] lastKey = null;
            while (i < kvs.size()) {
                long node = nodeOf(kvs.get(i).getValue());
                int j = i;
                boolean allBelow = true;
                while (j < kvs.size() && nodeOf(kvs.get(j).getValue()) == node) {
                    if (below != null && idOfEntryKey(kvs.get(j).getKey()).compareTo(below) >= 0) {
                        allBelow = false;
                    }
                    j++;
                }
                boolean complete = j < kvs.size() || read == 0 || kvs.size() < read;
                long n = j - i;
                if (!complete || !allBelow || removed + n > cap) {
                    break;
                }
                removed += n;
                lastKey = kvs.get(j - 1).getKey();
                i = j;
            }
            if (lastKey != null) {
                tr.clear(new Range(all.begin, Arrays.copyOf(lastKey, lastKey.length + 1)));
                clearChunksThrough(idOfEntryKey(lastKey));
                header = header.withLength(header.length() - removed);
            }
            return removed;
        });
    }

    /** Removes every entry with an ID below {@code id} (exact MINID trimming): how many went. */
    CompletableFuture<Long> removeBelow(StreamId id) {
        StreamId to = id.previous();
        if (to == null || header.length() == 0) {
            return CompletableFuture.completedFuture(0L);
        }
        Range below = entries(StreamId.MIN, to);
        // The entries are read to be counted (the header keeps the length); one clear removes them.
        return tr.getRange(below).asList().thenApply(kvs -> {
            if (!kvs.isEmpty()) {
                tr.clear(below);
                clearChunksThrough(to);
                header = header.withLength(header.length() - kvs.size());
            }
            return (long) kvs.size();
        });
    }
}
