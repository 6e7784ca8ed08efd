package io.strata.redis.pubsub;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * Q 'n' id                         -&gt; subscriptions to the channel/pattern of {@code id} by every process:
 *                                     8 bytes little-endian, ADD only, cleared at 0
 * Q 'm' process[16] id             -&gt; the same count for one process (so that a dead process's share can be taken away)
 * Q 'l' id part[2]                 -&gt; a long name (below) in parts of {@link #NAME_PART} bytes; there while {@code Q 'n' id} is
 * Q 'r' process[16]                -&gt; a live reader: beat[8] ++ cursor (the queue key it has delivered through, or empty)
 * </pre>
 * {@code stamp} is the publishing transaction's versionstamp (commit order), {@code seq} a
 * per-process counter that orders the messages of one transaction (several PUBLISH in one
 * EXEC), {@code part} the index of a chunk of a message larger than a value may be; all
 * big-endian, so key order is publish order. {@code kind} is one byte of {@link ChannelKind}.
 * {@code n} is always the sum of the {@code m} of every process: every transaction that
 * changes one changes the other by the same amount.
 *
 * <h2>Names in keys</h2>
 * {@code id} is how a channel, pattern or shard channel name appears in keys ({@link #id}).
 * <ul>
 * <li>A <b>short</b> name, one whose {@code Q 'm'} key fits FoundationDB's {@value #KEY_LIMIT}
 *     bytes (names up to about 9,980 bytes — every name this layout took before long names),
 *     is itself: {@code id = kind name}.</li>
 * <li>A <b>long</b> name (Redis takes up to 512 MB) is {@code id = kind+1 head[256] sha256[32]}:
 *     its first {@value #LONG_HEAD} bytes, to read the database by, and the SHA-256 of the whole
 *     name, so two long names share a count only if SHA-256 collides. The name itself is kept
 *     under {@code Q 'l' id}, for PUBSUB CHANNELS and for matching long patterns.</li>
 * </ul>
 * The first byte tells the forms apart ({@link ChannelKind#tag} or {@link ChannelKind#longTag},
 * which is {@code tag + 1}), so every count of one kind is the one range
 * {@code [Q 'n' tag, Q 'n' tag+2)} and a server that knows only short names reads its own range
 * {@code Q 'n' tag} as before.
 */
final class PubSubKeys {
    static final int STAMP = 10;
    static final int PROCESS = 16;
    /** stamp + seq + part: what follows {@code Q 'q'} in a queue key. */
    static final int ENTRY_SUFFIX = STAMP + 8 + 2;
    /** FoundationDB's largest key; a name is short when its longest key, {@code Q 'm'}, fits. */
    static final int KEY_LIMIT = 10_000;
    /** The bytes of a long name kept in its id: enough to recognise it, small next to the limit. */
    static final int LONG_HEAD = 256;
    private static final int SHA256 = 32;
    /** The length of every long id: tag, head and digest. */
    static final int LONG_ID = 1 + LONG_HEAD + SHA256;
    /** Bytes of a long name per value (a value holds at most 100,000). */
    static final int NAME_PART = 90_000;

    private final byte[] queue;
    private final byte[] tail;
    private final byte[] counts;
    private final byte[] perProcess;
    private final byte[] readers;
    private final byte[] stored;
    private final byte[] names;

    PubSubKeys(Subspace area) {
        byte[] p = area.getKey();
        queue = concat(p, (byte) 'q');
        tail = concat(p, (byte) 't');
        counts = concat(p, (byte) 'n');
        perProcess = concat(p, (byte) 'm');
        readers = concat(p, (byte) 'r');
        stored = concat(p, (byte) 'b');
        names = concat(p, (byte) 'l');
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

    /** How {@code name} of {@code kind} appears in keys: itself after the kind, or, if too long for that, its head and digest. */
    byte[] id(ChannelKind kind, byte[] name) {
        if (fitsInKey(name.length)) {
            return concat(new byte[] {kind.tag}, name);
        }
        return ByteBuffer.allocate(LONG_ID).put(kind.longTag).put(name, 0, LONG_HEAD).put(sha256(name)).array();
    }

    /** Whether a name of {@code length} bytes is short: its own id. */
    boolean fitsInKey(int length) {
        return longestKey(1 + length) <= KEY_LIMIT;
    }

    /** The length of the longest key an id of {@code idLength} bytes goes into, {@code Q 'm' process id}. */
    int longestKey(int idLength) {
        return perProcess.length + PROCESS + idLength;
    }

    /** Whether {@code id} is a long name's (its name is under {@link #nameRange}), not the name itself. */
    static boolean isLong(byte[] id) {
        for (ChannelKind k : ChannelKind.values()) {
            if (id[0] == k.longTag) {
                return true;
            }
        }
        return false;
    }

    /** The name of a short id. */
    static byte[] nameOfShortId(byte[] id) {
        return Arrays.copyOfRange(id, 1, id.length);
    }

    byte[] countKey(byte[] id) {
        return concat(counts, id);
    }

    byte[] countKey(ChannelKind kind, byte[] name) {
        return countKey(id(kind, name));
    }

    /** Every count of one kind, short names and long (PUBSUB CHANNELS, NUMPAT, the patterns a publish matches). */
    Range countRange(ChannelKind kind) {
        return new Range(concat(counts, kind.tag), concat(counts, (byte) (kind.longTag + 1)));
    }

    /** The id of a count key. */
    byte[] idOfCount(byte[] countKey) {
        return Arrays.copyOfRange(countKey, counts.length, countKey.length);
    }

    byte[] processCountKey(byte[] process, byte[] id) {
        return concat(concat(perProcess, process), id);
    }

    Range processCountRange(byte[] process) {
        byte[] begin = concat(perProcess, process);
        return new Range(begin, strinc(begin));
    }

    /** The id of a per-process count key. */
    byte[] idOfProcessCount(byte[] processCountKey) {
        return Arrays.copyOfRange(processCountKey, perProcess.length + PROCESS, processCountKey.length);
    }

    /** The key of part {@code part} of the name of long id {@code id}. */
    byte[] nameKey(byte[] id, int part) {
        return ByteBuffer.allocate(names.length + id.length + 2).put(names).put(id).putShort((short) part).array();
    }

    /** Every part of the name of long id {@code id} (long ids have one length, so none is a prefix of another). */
    Range nameRange(byte[] id) {
        return Range.startsWith(concat(names, id));
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

    static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The commit version in a versionstamp (its first 8 bytes). */
    static long commitVersion(byte[] stamp) {
        return ByteBuffer.wrap(stamp, 0, 8).getLong();
    }
}
