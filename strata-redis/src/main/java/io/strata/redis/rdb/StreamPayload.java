package io.strata.redis.rdb;

import io.strata.redis.rdb.RdbValue.StreamConsumer;
import io.strata.redis.rdb.RdbValue.StreamData;
import io.strata.redis.rdb.RdbValue.StreamEntry;
import io.strata.redis.rdb.RdbValue.StreamGroup;
import io.strata.redis.rdb.RdbValue.StreamId;
import io.strata.redis.rdb.RdbValue.StreamPending;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a stream value, RDB types 15 ({@code STREAM_LISTPACKS}, Redis 5 to 6.2) and 19
 * ({@code STREAM_LISTPACKS_2}, Redis 7.0), as Redis's {@code rdbLoadObject} reads it.
 *
 * <h2>Format</h2>
 * <pre>
 * nodes:len  (master-id:string[16, big-endian ms, seq]  listpack:string)*
 * length:len  last-id-ms:len last-id-seq:len
 * [type 19: first-id-ms:len first-id-seq:len max-deleted-ms:len max-deleted-seq:len entries-added:len]
 * groups:len  (name:string  last-id-ms:len last-id-seq:len  [type 19: entries-read:len]
 *              pel:len (id[16, big-endian] delivery-time[8 LE] delivery-count:len)*
 *              consumers:len (name:string seen-time[8 LE] pel:len (id[16])*)*)*
 * </pre>
 * A node's listpack: {@code count deleted master-field-count master-field* 0}, then per entry
 * {@code flags ms-diff seq-diff} and either the values of the master fields (flag
 * SAMEFIELDS, 2) or {@code field-count (field value)*}, then the entry's listpack element
 * count; an entry flagged DELETED (1) is a tombstone. IDs are the master ID plus the diffs.
 *
 * <p>Checked as Redis's deep sanitization checks it: each node's counts and entries, IDs
 * increasing, the length, duplicate groups, consumers and PEL entries, and that every PEL
 * entry has a consumer (this server stores the PEL by consumer) — a failure is an
 * {@link RdbFormatException}.
 */
final class StreamPayload {
    private static final int DELETED = 1;
    private static final int SAME_FIELDS = 2;

    private StreamPayload() {
    }

    static StreamData read(RdbInput in, boolean v2) {
        long nodeCount = in.readLength();
        List<StreamEntry> entries = new ArrayList<>();
        long tailFill = 0;
        StreamId previous = null;
        for (int node = 0; node < nodeCount; node++) {
            byte[] master = in.readString();
            if (master.length != 16) {
                throw new RdbFormatException("Stream node key entry is not the size of a stream ID");
            }
            ByteBuffer m = ByteBuffer.wrap(master);
            StreamId masterId = new StreamId(m.getLong(), m.getLong());
            List<byte[]> lp = Listpack.entries(in.readString());
            if (lp.isEmpty()) {
                throw new RdbFormatException("Empty listpack inside stream");
            }
            int before = entries.size();
            tailFill = readNode(lp, masterId, node, entries);
            for (int i = before; i < entries.size(); i++) {
                StreamId id = entries.get(i).id();
                if (previous != null && compare(id, previous) <= 0) {
                    throw new RdbFormatException("stream entry IDs out of order");
                }
                previous = id;
            }
        }
        long length = in.readLength();
        StreamId lastId = id(in);
        StreamId maxDeleted = new StreamId(0, 0);
        long entriesAdded = length;
        if (v2) {
            id(in); // the first entry's ID: the first entry we read
            maxDeleted = id(in);
            entriesAdded = in.readLength();
        }
        if (length != entries.size()) {
            throw new RdbFormatException("Stream length inconsistent with rax entries");
        }
        if (previous != null && compare(previous, lastId) > 0) {
            throw new RdbFormatException("stream last ID below its last entry");
        }
        long groupCount = in.readLength();
        List<StreamGroup> groups = new ArrayList<>();
        Set<ByteBuffer> groupNames = new HashSet<>();
        for (long g = 0; g < groupCount; g++) {
            byte[] name = in.readString();
            if (!groupNames.add(ByteBuffer.wrap(name))) {
                throw new RdbFormatException("Duplicated consumer group name");
            }
            StreamId groupLast = id(in);
            Long entriesRead = v2 ? in.readUnsignedLength() : null;
            groups.add(readGroup(in, name, groupLast, entriesRead));
        }
        return new StreamData(entries, (int) nodeCount, tailFill, lastId, maxDeleted, entriesAdded, groups);
    }

    /** The entries of one node into {@code out}; returns how many entries (tombstones included) it holds. */
    private static long readNode(List<byte[]> lp, StreamId master, int node, List<StreamEntry> out) {
        int[] at = {0};
        long count = number(lp, at);
        long deleted = number(lp, at);
        int masterFields = (int) number(lp, at);
        List<byte[]> fields = new ArrayList<>(masterFields);
        for (int i = 0; i < masterFields; i++) {
            fields.add(element(lp, at));
        }
        if (number(lp, at) != 0) {
            throw new RdbFormatException("stream master entry not terminated");
        }
        long live = 0;
        for (long e = 0; e < count + deleted; e++) {
            int flags = (int) number(lp, at);
            StreamId id = new StreamId(master.ms() + number(lp, at), master.seq() + number(lp, at));
            List<byte[]> fv = new ArrayList<>();
            int elements = 3;
            if ((flags & SAME_FIELDS) != 0) {
                for (byte[] f : fields) {
                    fv.add(f);
                    fv.add(element(lp, at));
                }
                elements += masterFields;
            } else {
                int n = (int) number(lp, at);
                for (int i = 0; i < 2 * n; i++) {
                    fv.add(element(lp, at));
                }
                elements += 1 + 2 * n;
            }
            if (number(lp, at) != elements) {
                throw new RdbFormatException("stream entry element count mismatch");
            }
            if ((flags & DELETED) == 0) {
                if (fv.isEmpty()) {
                    throw new RdbFormatException("stream entry without fields");
                }
                out.add(new StreamEntry(id, fv, node));
                live++;
            }
        }
        if (live != count || at[0] != lp.size()) {
            throw new RdbFormatException("stream node counts mismatch");
        }
        return count + deleted;
    }

    private static StreamGroup readGroup(RdbInput in, byte[] name, StreamId lastId, Long entriesRead) {
        long pelSize = in.readLength();
        Map<ByteBuffer, long[]> pel = new LinkedHashMap<>();
        for (long i = 0; i < pelSize; i++) {
            byte[] raw = in.readBytes(16);
            long time = in.readMillisecondTime();
            long count = in.readLength();
            if (pel.put(ByteBuffer.wrap(raw), new long[] {time, count}) != null) {
                throw new RdbFormatException("Duplicated global PEL entry loading stream consumer group");
            }
        }
        Map<ByteBuffer, byte[]> owners = new HashMap<>();
        List<StreamConsumer> consumers = new ArrayList<>();
        Set<ByteBuffer> consumerNames = new HashSet<>();
        long consumerCount = in.readLength();
        for (long c = 0; c < consumerCount; c++) {
            byte[] consumer = in.readString();
            if (!consumerNames.add(ByteBuffer.wrap(consumer))) {
                throw new RdbFormatException("Duplicate stream consumer detected.");
            }
            consumers.add(new StreamConsumer(consumer, in.readMillisecondTime()));
            long owned = in.readLength();
            for (long i = 0; i < owned; i++) {
                ByteBuffer raw = ByteBuffer.wrap(in.readBytes(16));
                if (!pel.containsKey(raw)) {
                    throw new RdbFormatException("Consumer entry not found in group global PEL");
                }
                if (owners.put(raw, consumer) != null) {
                    throw new RdbFormatException("Duplicated consumer PEL entry loading a stream consumer group");
                }
            }
        }
        List<StreamPending> pending = new ArrayList<>(pel.size());
        for (Map.Entry<ByteBuffer, long[]> e : pel.entrySet()) {
            byte[] owner = owners.get(e.getKey());
            if (owner == null) {
                throw new RdbFormatException("Stream CG PEL entry without consumer");
            }
            ByteBuffer raw = e.getKey().duplicate();
            pending.add(new StreamPending(new StreamId(raw.getLong(), raw.getLong()), e.getValue()[0], e.getValue()[1], owner));
        }
        return new StreamGroup(name, lastId, entriesRead, pending, consumers);
    }

    /**
     * Writes {@code s} as RDB type 19, the form Redis 7.0 writes: one listpack per node (the
     * node's first entry is its master, an entry with the master's fields flagged SAMEFIELDS),
     * no tombstones (this server keeps none), then the metadata, groups, PELs and consumers.
     */
    static void write(RdbOutput out, StreamData s) {
        List<List<StreamEntry>> nodes = new ArrayList<>();
        int current = Integer.MIN_VALUE;
        for (StreamEntry e : s.entries()) {
            if (nodes.isEmpty() || e.node() != current) {
                nodes.add(new ArrayList<>());
                current = e.node();
            }
            nodes.get(nodes.size() - 1).add(e);
        }
        out.writeLength(nodes.size());
        for (List<StreamEntry> node : nodes) {
            StreamId master = node.get(0).id();
            out.writeString(ByteBuffer.allocate(16).putLong(master.ms()).putLong(master.seq()).array());
            out.writeString(listpack(master, node));
        }
        out.writeLength(s.entries().size());
        writeId(out, s.lastId());
        writeId(out, s.entries().isEmpty() ? new StreamId(0, 0) : s.entries().get(0).id());
        writeId(out, s.maxDeletedId());
        out.writeUnsignedLength(s.entriesAdded());
        out.writeLength(s.groups().size());
        for (StreamGroup g : s.groups()) {
            out.writeString(g.name());
            writeId(out, g.lastId());
            out.writeUnsignedLength(g.entriesRead() == null ? -1 : g.entriesRead());
            out.writeLength(g.pending().size());
            for (StreamPending p : g.pending()) {
                out.writeRaw(raw(p.id()));
                out.writeMillisecondTime(p.deliveryTime());
                out.writeUnsignedLength(p.deliveryCount());
            }
            out.writeLength(g.consumers().size());
            for (StreamConsumer c : g.consumers()) {
                out.writeString(c.name());
                out.writeMillisecondTime(c.seenTime());
                List<StreamPending> owned = new ArrayList<>();
                for (StreamPending p : g.pending()) {
                    if (java.util.Arrays.equals(p.consumer(), c.name())) {
                        owned.add(p);
                    }
                }
                out.writeLength(owned.size());
                for (StreamPending p : owned) {
                    out.writeRaw(raw(p.id()));
                }
            }
        }
    }

    /** One node's listpack: the master entry (count, deleted, the first entry's fields, 0), then the entries. */
    private static byte[] listpack(StreamId master, List<StreamEntry> node) {
        List<byte[]> masterFields = fieldsOf(node.get(0));
        ListpackWriter lp = new ListpackWriter().add(node.size()).add(0).add(masterFields.size());
        masterFields.forEach(lp::add);
        lp.add(0);
        for (StreamEntry e : node) {
            List<byte[]> fields = fieldsOf(e);
            boolean same = sameFields(fields, masterFields);
            lp.add(same ? SAME_FIELDS : 0).add(e.id().ms() - master.ms()).add(e.id().seq() - master.seq());
            List<byte[]> fv = e.fieldsAndValues();
            if (same) {
                for (int i = 1; i < fv.size(); i += 2) {
                    lp.add(fv.get(i));
                }
                lp.add(3 + fields.size());
            } else {
                lp.add(fields.size());
                fv.forEach(lp::add);
                lp.add(4 + 2L * fields.size());
            }
        }
        return lp.toByteArray();
    }

    private static List<byte[]> fieldsOf(StreamEntry e) {
        List<byte[]> fields = new ArrayList<>(e.fieldsAndValues().size() / 2);
        for (int i = 0; i < e.fieldsAndValues().size(); i += 2) {
            fields.add(e.fieldsAndValues().get(i));
        }
        return fields;
    }

    private static boolean sameFields(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!java.util.Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static void writeId(RdbOutput out, StreamId id) {
        out.writeUnsignedLength(id.ms());
        out.writeUnsignedLength(id.seq());
    }

    private static byte[] raw(StreamId id) {
        return ByteBuffer.allocate(16).putLong(id.ms()).putLong(id.seq()).array();
    }

    private static StreamId id(RdbInput in) {
        return new StreamId(in.readUnsignedLength(), in.readUnsignedLength());
    }

    private static byte[] element(List<byte[]> lp, int[] at) {
        if (at[0] >= lp.size()) {
            throw new RdbFormatException("stream listpack ends early");
        }
        return lp.get(at[0]++);
    }

    private static long number(List<byte[]> lp, int[] at) {
        byte[] b = element(lp, at);
        try {
            return Long.parseLong(new String(b, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new RdbFormatException("stream listpack: a number expected");
        }
    }

    /** Stream IDs compare as unsigned numbers. */
    static int compare(StreamId a, StreamId b) {
        int c = Long.compareUnsigned(a.ms(), b.ms());
        return c != 0 ? c : Long.compareUnsigned(a.seq(), b.seq());
    }
}
