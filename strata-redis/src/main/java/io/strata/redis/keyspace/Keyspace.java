package io.strata.redis.keyspace;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where the server keeps everything, under one root prefix {@code P} (a directory of the
 * directory layer, so that the server shares a cluster with other layers).
 *
 * <h2>Key layout</h2>
 * <pre>
 * P 'k' db[2] key                 -&gt; the key's metadata ({@link KeyMeta}): type, expiry, payload
 * P 'v' db[2] key                 -&gt; the key's change stamp: the versionstamp of the last
 *                                    transaction that changed it (kept after a delete while a
 *                                    WATCH may need it to see that the key came and went)
 * P 'g' vs[10] db[2] key          -&gt; empty: the stamps of deleted keys, by the versionstamp of
 *                                    the deletion, for the sweep that clears them
 *                                    ({@link WatchRegistry})
 * P 'h' vs[10] db[2]             -&gt; the flushes of databases (FLUSHDB, FLUSHALL), by the
 *                                    versionstamp of the flush, for the sweep that clears the
 *                                    stamps the flush left: empty, or where the sweep goes on
 * P 'x' at[8] db[2] key           -&gt; empty: the expiry index, ordered by time, then database
 * P 'n' db[2]                    -&gt; the number of keys of the database: 8 bytes little-endian,
 *                                    changed by atomic ADD only (DBSIZE without a scan)
 * P 'n' db[2] 'e'                -&gt; the number of those keys that have an expiry, likewise
 *                                    (INFO keyspace's expires=)
 * P 'o' db[2] id ...              -&gt; the elements of a collection or the chunks of a large
 *                                    string, under the object id its metadata names
 * P 'a' ...                       -&gt; the High Contention Allocator that hands out object ids
 * P 'i' ...                       -&gt; the string interner that gives set members their ids
 *                                    (mappings are never freed: see {@link KeyStore#interner()})
 * P 'p' ...                       -&gt; pub/sub: the message queue, subscription counts and readers
 *                                    ({@code io.strata.redis.pubsub.PubSubKeys})
 * P 'u' ...                       -&gt; ACL users and the ACL version ({@code acl.AclStore}, area 'u')
 * P 'f' ...                       -&gt; Redis 7 function libraries ({@code scripting.FunctionStore}, area 'f')
 * </pre>
 * {@code db} is the database index big-endian; {@code at} Unix milliseconds big-endian; the
 * Redis key is appended raw as the last element, so the keys of one database are contiguous
 * and in byte order (KEYS and SCAN are range reads), and no escaping is needed. Collections
 * sit under an object id, not under their key, so RENAME rewrites one metadata record
 * however large the value, and deleting a key clears one range; objects are grouped by
 * database, so FLUSHDB clears three ranges however many keys it held (and leaves the stamps,
 * for WATCH, to a sweep). Entries of the expiry
 * index may outlive their key (FLUSHDB leaves them); the expiry cycle checks each against
 * the key's metadata before acting on it.
 */
public final class Keyspace {
    static final byte META = 'k';
    static final byte STAMP = 'v';
    static final byte EXPIRY = 'x';
    static final byte OBJECTS = 'o';
    static final byte COUNT = 'n';
    static final byte ALLOCATOR = 'a';
    static final byte INTERNER = 'i';
    static final byte DEAD_STAMPS = 'g';
    static final byte FLUSHES = 'h';

    private final byte[] prefix;

    public Keyspace(Subspace root) {
        this.prefix = root.getKey();
    }

    public byte[] prefix() {
        return prefix.clone();
    }

    public byte[] metaKey(int db, byte[] key) {
        return withKey(META, db, key);
    }

    public byte[] stampKey(int db, byte[] key) {
        return withKey(STAMP, db, key);
    }

    /** The metadata keys of database {@code db}. */
    public Range metaRange(int db) {
        byte[] begin = withKey(META, db, new byte[0]);
        return new Range(begin, strinc(begin));
    }

    /** The Redis key of a metadata key of database {@code db}. */
    public byte[] keyOfMeta(byte[] metaKey) {
        return Arrays.copyOfRange(metaKey, prefix.length + 3, metaKey.length);
    }

    /** The Redis key of a change stamp's key (from {@link #stampRange}). */
    public byte[] keyOfStamp(byte[] stampKey) {
        return Arrays.copyOfRange(stampKey, prefix.length + 3, stampKey.length);
    }

    /** All change stamps of database {@code db}. */
    public Range stampRange(int db) {
        byte[] begin = withKey(STAMP, db, new byte[0]);
        return new Range(begin, strinc(begin));
    }

    public byte[] expiryKey(long atMillis, int db, byte[] key) {
        return ByteBuffer.allocate(prefix.length + 11 + key.length)
                .put(prefix).put(EXPIRY).putLong(atMillis).putShort((short) db).put(key).array();
    }

    /** The expiry entries due at or before {@code nowMillis}. */
    public Range expiredBy(long nowMillis) {
        byte[] begin = ByteBuffer.allocate(prefix.length + 1).put(prefix).put(EXPIRY).array();
        byte[] end = ByteBuffer.allocate(prefix.length + 9).put(prefix).put(EXPIRY).putLong(nowMillis + 1).array();
        return new Range(begin, end);
    }

    /** Decodes an expiry index key into (at, db, key). */
    public ExpiryEntry expiryEntry(byte[] indexKey) {
        ByteBuffer b = ByteBuffer.wrap(indexKey, prefix.length + 1, indexKey.length - prefix.length - 1);
        long at = b.getLong();
        int db = b.getShort() & 0xffff;
        byte[] key = Arrays.copyOfRange(indexKey, prefix.length + 11, indexKey.length);
        return new ExpiryEntry(at, db, key);
    }

    /** One entry of the expiry index. */
    public record ExpiryEntry(long atMillis, int db, byte[] key) {
    }

    /** The subspace of object {@code id}'s elements in database {@code db}. */
    public Subspace object(int db, byte[] id) {
        return new Subspace(withKey(OBJECTS, db, id));
    }

    /** Every object of database {@code db}. */
    public Range objectRange(int db) {
        byte[] begin = withKey(OBJECTS, db, new byte[0]);
        return new Range(begin, strinc(begin));
    }

    /**
     * Every key of database {@code db} under each per-database tag that holds its contents
     * (metadata, objects, counts); not its stamps, which belong to the key's name in that
     * database, whatever it holds.
     */
    public java.util.List<Range> databaseRanges(int db) {
        java.util.List<Range> ranges = new java.util.ArrayList<>();
        for (byte tag : new byte[] {META, OBJECTS, COUNT}) {
            byte[] begin = withKey(tag, db, new byte[0]);
            ranges.add(new Range(begin, strinc(begin)));
        }
        return ranges;
    }

    /** A per-database key ({@link #databaseRanges}) moved to database {@code db}. */
    public byte[] inDatabase(byte[] key, int db) {
        byte[] k = key.clone();
        k[prefix.length + 1] = (byte) (db >>> 8);
        k[prefix.length + 2] = (byte) db;
        return k;
    }

    /** The whole expiry index. */
    public Range expiryIndex() {
        byte[] begin = concat(prefix, EXPIRY);
        return new Range(begin, strinc(begin));
    }

    /** An expiry index entry moved to database {@code db}. */
    public byte[] expiryInDatabase(byte[] indexKey, int db) {
        byte[] k = indexKey.clone();
        k[prefix.length + 9] = (byte) (db >>> 8);
        k[prefix.length + 10] = (byte) db;
        return k;
    }

    /**
     * The parameter of a {@code SET_VERSIONSTAMPED_KEY} that records the deleted key's stamp
     * in the dead-stamp index: the entry's key with ten placeholder bytes where the
     * versionstamp goes, and their offset, four bytes little-endian.
     */
    public byte[] deadStampParam(int db, byte[] key) {
        return versionstampedParam(DEAD_STAMPS, db, key);
    }

    /**
     * The dead-stamp index entry for a deletion that left the key's stamp as it was:
     * {@code stamp}, the 10-byte versionstamp the key's last change wrote.
     */
    public byte[] deadStampKey(int db, byte[] key, byte[] stamp) {
        return ByteBuffer.allocate(prefix.length + 13 + key.length).put(prefix).put(DEAD_STAMPS).put(stamp, 0, 10)
                .putShort((short) db).put(key).array();
    }

    /** The dead-stamp index entries of deletions committed before version {@code version}. */
    public Range deadStampsBefore(long version) {
        return stampedBefore(DEAD_STAMPS, version);
    }

    /** Decodes a dead-stamp index key. */
    public DeadStamp deadStamp(byte[] indexKey) {
        int at = prefix.length + 1;
        return new DeadStamp(Arrays.copyOfRange(indexKey, at, at + 10), dbAt(indexKey, at + 10),
                Arrays.copyOfRange(indexKey, at + 12, indexKey.length));
    }

    /** One entry of the dead-stamp index: the stamp the deletion wrote, and the key. */
    public record DeadStamp(byte[] stamp, int db, byte[] key) {
    }

    /**
     * The parameter of a {@code SET_VERSIONSTAMPED_KEY} that records a flush of database
     * {@code db}: the record's key with ten placeholder bytes for the versionstamp, and their
     * offset, four bytes little-endian.
     */
    public byte[] flushParam(int db) {
        return versionstampedParam(FLUSHES, db, new byte[0]);
    }

    /** The flush records of flushes committed before version {@code version}. */
    public Range flushesBefore(long version) {
        return stampedBefore(FLUSHES, version);
    }

    /** Decodes a flush record's key. */
    public Flush flush(byte[] recordKey) {
        int at = prefix.length + 1;
        return new Flush(Arrays.copyOfRange(recordKey, at, at + 10), dbAt(recordKey, at + 10));
    }

    /**
     * {@code P tag vs[10] db[2] key} with ten placeholder bytes where the versionstamp goes,
     * then their offset, four bytes little-endian: a {@code SET_VERSIONSTAMPED_KEY} parameter.
     */
    private byte[] versionstampedParam(byte tag, int db, byte[] key) {
        return ByteBuffer.allocate(prefix.length + 13 + key.length + 4).order(java.nio.ByteOrder.BIG_ENDIAN)
                .put(prefix).put(tag).put(new byte[10]).putShort((short) db).put(key)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(prefix.length + 1).array();
    }

    /** The entries under {@code tag} whose versionstamp is of a version before {@code version}. */
    private Range stampedBefore(byte tag, long version) {
        byte[] begin = concat(prefix, tag);
        byte[] end = ByteBuffer.allocate(prefix.length + 9).put(prefix).put(tag).putLong(version).array();
        return new Range(begin, end);
    }

    /** The database number, big-endian, at {@code at} of {@code k}. */
    private static int dbAt(byte[] k, int at) {
        return ((k[at] & 0xff) << 8) | (k[at + 1] & 0xff);
    }

    /** One flush: the versionstamp of its transaction, and the database it emptied. */
    public record Flush(byte[] stamp, int db) {
    }

    /** The key counter of database {@code db}. */
    public byte[] countKey(int db) {
        return withKey(COUNT, db, new byte[0]);
    }

    /** The counter of database {@code db}'s keys that have an expiry. */
    public byte[] expiresCountKey(int db) {
        return withKey(COUNT, db, new byte[] {'e'});
    }

    /** Every database's counters (keys and expires). */
    public Range countRange() {
        byte[] begin = concat(prefix, COUNT);
        return new Range(begin, strinc(begin));
    }

    /** The database a counter key (from {@link #countRange}) belongs to, and whether it counts expires. */
    public CounterKey counterKey(byte[] key) {
        int db = ((key[prefix.length + 1] & 0xff) << 8) | (key[prefix.length + 2] & 0xff);
        return new CounterKey(db, key.length > prefix.length + 3);
    }

    /** A counter's database and kind. */
    public record CounterKey(int db, boolean expires) {
    }

    public Subspace allocatorSubspace() {
        return new Subspace(concat(prefix, ALLOCATOR));
    }

    public Subspace internerSubspace() {
        return new Subspace(concat(prefix, INTERNER));
    }

    /** A subspace for a server-wide concern ({@code tag} not one of the above), e.g. ACL users or pub/sub. */
    public Subspace area(char tag) {
        if ("kvxoaingh".indexOf(tag) >= 0) {
            throw new IllegalArgumentException("tag in use: " + tag);
        }
        return new Subspace(concat(prefix, (byte) tag));
    }

    /** Everything the server keeps. */
    public Range everything() {
        return new Range(prefix, strinc(prefix));
    }

    private byte[] withKey(byte tag, int db, byte[] key) {
        byte[] k = new byte[prefix.length + 3 + key.length];
        System.arraycopy(prefix, 0, k, 0, prefix.length);
        k[prefix.length] = tag;
        k[prefix.length + 1] = (byte) (db >>> 8);
        k[prefix.length + 2] = (byte) db;
        System.arraycopy(key, 0, k, prefix.length + 3, key.length);
        return k;
    }

    private static byte[] concat(byte[] a, byte b) {
        byte[] r = Arrays.copyOf(a, a.length + 1);
        r[a.length] = b;
        return r;
    }

    /** The first key after every key that starts with {@code k}. */
    static byte[] strinc(byte[] k) {
        int n = k.length;
        while (n > 0 && k[n - 1] == (byte) 0xff) {
            n--;
        }
        if (n == 0) {
            throw new IllegalArgumentException("no key follows a prefix of 0xff bytes");
        }
        byte[] r = Arrays.copyOf(k, n);
        r[n - 1]++;
        return r;
    }
}
