package io.strata.redis.pubsub;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Where pub/sub keeps its state, under the area {@code Q = P 'p'} of the server's keyspace.
 *
 * <h2>Key layout</h2>
 * <pre>
 * Q 'q' stamp[10] seq[8] part[2]   -&gt; one part of a published message (the queue; see {@link MessageLog})
 * Q 't'                            -&gt; the tail: 8 bytes little-endian, ADD 1 by every publish; readers watch it
 * Q 'b' stamp[10] seq[8]           -&gt; where a message too large for its publishing transaction is stored (the
 *                                     prefix of its object's keys); the message's queue entry names the same
 *                                     place, and trimming the entry clears the object
 * Q 'n' kind name                  -&gt; subscriptions to channel/pattern {@code name} by every process:
 *                                     8 bytes little-endian, ADD only, cleared at 0
 * Q 'm' process[16] kind name      -&gt; the same count for one process (so that a dead process's share can be taken away)
 * Q 'r' process[16]                -&gt; a live reader: beat[8] ++ cursor (the queue key it has delivered through, or empty)
 * </pre>
 * {@code stamp} is the publishing transaction's versionstamp (commit order), {@code seq} a
 * per-process counter that orders the messages of one transaction (several PUBLISH in one
 * EXEC), {@code part} the index of a chunk of a message larger than a value may be; all
 * big-endian, so key order is publish order. {@code kind} is one byte of {@link ChannelKind}.
 * {@code n} is always the sum of the {@code m} of every process: every transaction that
 * changes one changes the other by the same amount.
 */
final class PubSubKeys {
    static final int STAMP = 10;
    static final int PROCESS = 16;
    /** stamp + seq + part: what follows {@code Q 'q'} in a queue key. */
    static final int ENTRY_SUFFIX = STAMP + 8 + 2;

    private final byte[] queue;
    private final byte[] tail;
    private final byte[] counts;
    private final byte[] perProcess;
    private final byte[] readers;
    private final byte[] stored;

    PubSubKeys(Subspace area) {
        byte[] p = area.getKey();
        queue = concat(p, (byte) 'q');
        tail = concat(p, (byte) 't');
        counts = concat(p, (byte) 'n');
        perProcess = concat(p, (byte) 'm');
        readers = concat(p, (byte) 'r');
        stored = concat(p, (byte) 'b');
    }

    byte[] tail() {
        return tail.clone();
    }

    /** A queue key with room for the versionstamp, as SET_VERSIONSTAMPED_KEY takes it (offset appended). */
    byte[] versionstampedEntryKey(long seq, int part) {
        ByteBuffer b = ByteBuffer.allocate(queue.length + ENTRY_SUFFIX + 4);
        b.put(queue).put(new byte[STAMP]).putLong(seq).putShort((short) part);
        b.order(ByteOrder.LITTLE_ENDIAN).putInt(queue.length);
        return b.array();
    }

    /** The key naming a stored message's object, with room for the versionstamp (offset appended). */
    byte[] versionstampedStoredKey(long seq) {
        ByteBuffer b = ByteBuffer.allocate(stored.length + STAMP + 8 + 4);
        b.put(stored).put(new byte[STAMP]).putLong(seq);
        b.order(ByteOrder.LITTLE_ENDIAN).putInt(stored.length);
        return b.array();
    }

    /** The stored messages' keys of the messages before queue entry {@code suffix} (stamp + seq + part). */
    Range storedBefore(byte[] suffix) {
        return new Range(stored, concat(stored, Arrays.copyOf(suffix, STAMP + 8)));
    }

    Range queueRange() {
        return new Range(queue, strinc(queue));
    }

    byte[] queueKey(byte[] suffix) {
        return concat(queue, suffix);
    }

    /** The stamp + seq + part of a queue key. */
    byte[] entrySuffix(byte[] queueKey) {
        return Arrays.copyOfRange(queueKey, queue.length, queueKey.length);
    }

    byte[] countKey(ChannelKind kind, byte[] name) {
        return concat(concat(counts, kind.tag), name);
    }

    /** Every count of one kind (PUBSUB CHANNELS, NUMPAT, the patterns a publish matches). */
    Range countRange(ChannelKind kind) {
        byte[] begin = concat(counts, kind.tag);
        return new Range(begin, strinc(begin));
    }

    /** The channel or pattern of a count key. */
    byte[] nameOfCount(byte[] countKey) {
        return Arrays.copyOfRange(countKey, counts.length + 1, countKey.length);
    }

    byte[] processCountKey(byte[] process, ChannelKind kind, byte[] name) {
        return concat(concat(concat(perProcess, process), kind.tag), name);
    }

    Range processCountRange(byte[] process) {
        byte[] begin = concat(perProcess, process);
        return new Range(begin, strinc(begin));
    }

    /** The kind and name of a per-process count key, as the count key they add to. */
    byte[] countKeyOfProcessCount(byte[] processCountKey) {
        return concat(counts, Arrays.copyOfRange(processCountKey, perProcess.length + PROCESS, processCountKey.length));
    }

    byte[] readerKey(byte[] process) {
        return concat(readers, process);
    }

    Range readerRange() {
        return new Range(readers, strinc(readers));
    }

    byte[] processOfReader(byte[] readerKey) {
        return Arrays.copyOfRange(readerKey, readers.length, readerKey.length);
    }

    static byte[] concat(byte[] a, byte b) {
        byte[] r = Arrays.copyOf(a, a.length + 1);
        r[a.length] = b;
        return r;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    static byte[] strinc(byte[] k) {
        int n = k.length;
        while (n > 0 && k[n - 1] == (byte) 0xff) {
            n--;
        }
        byte[] r = Arrays.copyOf(k, n);
        r[n - 1]++;
        return r;
    }

    /** An 8-byte little-endian integer, as ADD reads and writes them. */
    static byte[] littleEndian(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    static long littleEndian(byte[] v) {
        if (v == null) {
            return 0;
        }
        byte[] padded = Arrays.copyOf(v, 8);
        return ByteBuffer.wrap(padded).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** The commit version in a versionstamp (its first 8 bytes). */
    static long commitVersion(byte[] stamp) {
        return ByteBuffer.wrap(stamp, 0, 8).getLong();
    }
}
