package io.strata.engine.cluster;

import io.strata.engine.store.VersionedStore;
import io.strata.engine.util.ByteKeys;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The engine's shard map: the key space cut where FoundationDB's data distributor would cut a
 * database of this size, all on the engine's one storage server. Served read-only as
 * {@code \xff/keyServers/}, so that fdb-java's {@code LocalityUtil.getBoundaryKeys} reports
 * boundaries, and as {@code \xff\xff/metrics/data_distribution_stats/}.
 *
 * <h2>Where the boundaries are</h2>
 * FoundationDB seeds a new database with one shard, {@code ["", \xff\xff)}: its
 * {@code \xff/keyServers/} holds the key {@code ""} (the shard's begin) and the end marker
 * {@code \xff\xff} with an empty value ({@code seedShardServers}, {@code krmSetPreviouslyEmptyRange}).
 * Its data distributor then splits a shard that grows past {@code getMaxShardSize(database size)}
 * — {@code (MIN_SHARD_BYTES + sqrt(size) * SHARD_BYTES_PER_SQRT_BYTES) * SHARD_BYTES_RATIO},
 * capped at {@code MAX_SHARD_BYTES} — into pieces of half that ({@code shardSplitter}), and
 * merges shards below a quarter of it. This map applies the same rule to the whole key space
 * at once: one shard while the data (keys plus values, system keys included) is no larger than
 * the maximum shard size, else boundaries every half maximum, with no last shard below a
 * quarter. So a small database has exactly the one shard a new FoundationDB database has, and a
 * large one about as many as FoundationDB would settle on. A boundary is always a stored key.
 *
 * <h2>Cost and consistency</h2>
 * The map is a function of the data at a version, computed by one walk of the store at that
 * version and kept for the last version asked for, so the reads of one transaction (one read
 * version) see one map and pay for one walk. The walk remembers a candidate boundary every
 * {@link #CANDIDATE_BYTES} and picks among them once the total is known.
 *
 * <p>Over a disk store holding more than {@link VersionedStore#splitWalkLimit()}, the data is not walked
 * (gigabytes would be read for every read version that asks): sizes are the disk store's
 * estimates plus the window's values ({@link VersionedStore#estimatedSize}), and the
 * boundaries the store's split points at half the maximum shard size
 * ({@link VersionedStore#splitPoints}: stored keys found from the disk's statistics), the
 * last piece merged into the one before it when below a quarter — as FoundationDB's data
 * distributor itself works from its storage servers' byte samples, not from the data.
 *
 * <h2>Concurrency</h2>
 * Any reader thread may compute; the cached map is immutable and published through a
 * volatile field. Two threads computing the same version at once compute the same map.
 */
public final class ShardMap {
    /** {@code \xff/keyServers/}: FoundationDB's {@code keyServersPrefix}. */
    public static final byte[] KEY_SERVERS_BEGIN = ascii("\u00ff/keyServers/");
    /** {@code \xff/keyServers0}: the end of {@code keyServersKeys}. */
    public static final byte[] KEY_SERVERS_END = ascii("\u00ff/keyServers0");

    /** FoundationDB's server knobs {@code MIN_SHARD_BYTES}, {@code SHARD_BYTES_RATIO}, {@code SHARD_BYTES_PER_SQRT_BYTES}, {@code MAX_SHARD_BYTES}. */
    static final long MIN_SHARD_BYTES = 10_000_000L;
    static final long SHARD_BYTES_RATIO = 4;
    static final long SHARD_BYTES_PER_SQRT_BYTES = 45;
    static final long MAX_SHARD_BYTES = 500_000_000L;
    /** How finely the walk remembers where a boundary could go: 1 MB, small next to the 20 MB smallest split. */
    static final long CANDIDATE_BYTES = 1_000_000L;
    /** FoundationDB's {@code ProtocolVersion::withKeyServerValue()}: the version a keyServers value is written with. */
    static final long KEY_SERVER_VALUE_PROTOCOL = 0x0FDB00B062010001L;

    private final VersionedStore store;
    private final byte[] serverValue;
    private volatile Shards cached;

    /**
     * @param store           the data the map describes
     * @param storageIdHigh   first half of the storage server's UID
     * @param storageIdLow    second half
     */
    public ShardMap(VersionedStore store, long storageIdHigh, long storageIdLow) {
        this.store = store;
        this.serverValue = keyServersValue(storageIdHigh, storageIdLow);
    }

    /**
     * The shards at one version.
     *
     * @param version    the version the data was read at
     * @param begins     each shard's first key, ascending; the first is {@code ""}
     * @param bytes      each shard's keys plus values, in bytes
     * @param totalBytes all data, system keys included
     * @param systemBytes the data of system keys ({@code \xff} and above)
     */
    public record Shards(long version, List<byte[]> begins, long[] bytes, long totalBytes, long systemBytes) {
        public int count() {
            return begins.size();
        }
    }

    /** FoundationDB's {@code getMaxShardSize}: the size past which the data distributor splits a shard. */
    public static long maxShardBytes(long databaseBytes) {
        long size = (MIN_SHARD_BYTES + (long) Math.sqrt(Math.max(databaseBytes, 0)) * SHARD_BYTES_PER_SQRT_BYTES)
                * SHARD_BYTES_RATIO;
        return Math.min(size, MAX_SHARD_BYTES);
    }

    /** The shards of the data at {@code version}; readers re-check that the version was still readable. */
    public Shards at(long version) {
        Shards s = cached;
        if (s != null && s.version() == version) {
            return s;
        }
        s = compute(version);
        cached = s;
        return s;
    }

    private Shards compute(long version) {
        if (store.onDisk()) {
            long estimated = store.estimatedSize(ByteKeys.EMPTY, ByteKeys.SYSTEM_END, version);
            if (estimated > store.splitWalkLimit()) {
                return estimate(version, estimated);
            }
        }
        return walk(version);
    }

    /** The map from the disk store's statistics: see "Cost and consistency". */
    private Shards estimate(long version, long total) {
        long system = store.estimatedSize(ByteKeys.NORMAL_END, ByteKeys.SYSTEM_END, version);
        List<byte[]> begins = new ArrayList<>();
        begins.add(ByteKeys.EMPTY);
        long max = maxShardBytes(total);
        if (total > max) {
            List<byte[]> points = store.splitPoints(ByteKeys.EMPTY, ByteKeys.SYSTEM_END, max / 2, version);
            // points: the range's begin, the inner boundaries, then its end.
            begins.addAll(points.subList(1, points.size() - 1));
        }
        List<Long> sizes = new ArrayList<>(begins.size());
        for (int i = 0; i < begins.size(); i++) {
            byte[] end = i + 1 < begins.size() ? begins.get(i + 1) : ByteKeys.SYSTEM_END;
            sizes.add(store.estimatedSize(begins.get(i), end, version));
        }
        int last = begins.size() - 1;
        if (last > 0 && sizes.get(last) < max / SHARD_BYTES_RATIO) {
            // A last shard FoundationDB would merge away: it joins the one before it.
            begins.remove(last);
            sizes.set(last - 1, sizes.get(last - 1) + sizes.remove(last));
        }
        long[] bytes = new long[sizes.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = sizes.get(i);
        }
        return new Shards(version, Collections.unmodifiableList(begins), bytes, total, system);
    }

    /** The map from one walk of the data at {@code version} (exact). */
    private Shards walk(long version) {
        List<byte[]> candidates = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        long total = 0;
        long system = 0;
        long sinceCandidate = 0;
        try (var it = store.range(ByteKeys.EMPTY, ByteKeys.SYSTEM_END, version, false)) {
            while (it.hasNext()) {
                Map.Entry<byte[], byte[]> e = it.next();
                if (sinceCandidate >= CANDIDATE_BYTES) {
                    candidates.add(e.getKey());
                    offsets.add(total);
                    sinceCandidate = 0;
                }
                long size = e.getKey().length + e.getValue().length;
                total += size;
                if (e.getKey().length > 0 && e.getKey()[0] == (byte) 0xff) {
                    system += size;
                }
                sinceCandidate += size;
        }
        }
        List<byte[]> begins = new ArrayList<>();
        List<Long> beginOffsets = new ArrayList<>();
        begins.add(ByteKeys.EMPTY);
        beginOffsets.add(0L);
        long max = maxShardBytes(total);
        if (total > max) {
            long piece = max / 2;
            long next = piece;
            for (int i = 0; i < candidates.size(); i++) {
                long at = offsets.get(i);
                // Cut where a piece is full, unless what is left would be a shard FoundationDB merges away.
                if (at >= next && total - at >= max / SHARD_BYTES_RATIO) {
                    begins.add(candidates.get(i));
                    beginOffsets.add(at);
                    next = at + piece;
                }
            }
        }
        long[] bytes = new long[begins.size()];
        for (int i = 0; i < bytes.length; i++) {
            long end = i + 1 < bytes.length ? beginOffsets.get(i + 1) : total;
            bytes[i] = end - beginOffsets.get(i);
        }
        return new Shards(version, Collections.unmodifiableList(begins), bytes, total, system);
    }

    /**
     * The rows of {@code \xff/keyServers/} at {@code version}, ascending: one per shard begin,
     * valued with the storage server that holds it, then FoundationDB's end marker
     * {@code \xff/keyServers/\xff\xff} with an empty value.
     */
    public List<Map.Entry<byte[], byte[]>> keyServersRows(long version) {
        Shards s = at(version);
        List<Map.Entry<byte[], byte[]>> rows = new ArrayList<>(s.count() + 1);
        for (byte[] begin : s.begins()) {
            rows.add(Map.entry(ByteKeys.concat(KEY_SERVERS_BEGIN, begin), serverValue));
        }
        rows.add(Map.entry(ByteKeys.concat(KEY_SERVERS_BEGIN, ByteKeys.SYSTEM_END), ByteKeys.EMPTY));
        return rows;
    }

    /** Whether {@code key} lies in {@code \xff/keyServers/}. */
    public static boolean isKeyServersKey(byte[] key) {
        return key.length > 0 && key[0] == (byte) 0xff // most keys are user keys: one byte decides
                && ByteKeys.compare(key, KEY_SERVERS_BEGIN) >= 0 && ByteKeys.compare(key, KEY_SERVERS_END) < 0;
    }

    /** Whether {@code [begin, end)} meets {@code \xff/keyServers/}. */
    public static boolean meetsKeyServers(byte[] begin, byte[] end) {
        return ByteKeys.compare(begin, KEY_SERVERS_END) < 0 && ByteKeys.compare(end, KEY_SERVERS_BEGIN) > 0
                && ByteKeys.compare(begin, end) < 0;
    }

    /**
     * A keyServers value as FoundationDB writes one without tag encoding
     * ({@code keyServersValue(RangeResult, src, dest)}): the protocol version
     * {@code withKeyServerValue()}, then the source servers and the (empty) destination servers,
     * each a little-endian {@code uint32} count followed by {@code UID}s as two little-endian
     * {@code uint64}s. 32 bytes for the one source server.
     */
    static byte[] keyServersValue(long storageIdHigh, long storageIdLow) {
        return ByteBuffer.allocate(8 + 4 + 16 + 4).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(KEY_SERVER_VALUE_PROTOCOL)
                .putInt(1).putLong(storageIdHigh).putLong(storageIdLow)
                .putInt(0)
                .array();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
