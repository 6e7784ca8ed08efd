package io.strata.redis.rdb;

import io.strata.redis.rdb.RdbValue.HashValue;
import io.strata.redis.rdb.RdbValue.ListValue;
import io.strata.redis.rdb.RdbValue.SetValue;
import io.strata.redis.rdb.RdbValue.StringValue;
import io.strata.redis.rdb.RdbValue.ZSetValue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decodes the value of a DUMP payload (whose footer {@link DumpPayload#verify} has checked)
 * from every encoding Redis 7.0 loads: strings (raw, integer, LZF); lists as plain
 * (type 1), ziplist (10), quicklist of ziplists (14) and quicklist 2 of listpacks or plain
 * nodes (18); sets plain (2) and intset (11); sorted sets with text (3) or binary (5) scores,
 * ziplist (12) and listpack (17); hashes plain (4), zipmap (9), ziplist (13), listpack (16);
 * streams (15, 19: {@link StreamPayload}).
 *
 * <p>As Redis: an empty collection and duplicate members or fields are a
 * {@link RdbFormatException} ("Bad data format"), as is a NaN score. Unlike Redis with
 * {@code sanitize-dump-payload no}, the compact encodings are always checked deeply, since
 * every entry is copied out. Module values are
 * {@link UnsupportedValueException}s. Bytes after the value (before the footer) are ignored,
 * as Redis ignores them.
 */
public final class RdbDecoder {
    static final int STRING = 0;
    static final int LIST = 1;
    static final int SET = 2;
    static final int ZSET = 3;
    static final int HASH = 4;
    static final int ZSET_2 = 5;
    static final int MODULE = 6;
    static final int MODULE_2 = 7;
    static final int HASH_ZIPMAP = 9;
    static final int LIST_ZIPLIST = 10;
    static final int SET_INTSET = 11;
    static final int ZSET_ZIPLIST = 12;
    static final int HASH_ZIPLIST = 13;
    static final int LIST_QUICKLIST = 14;
    static final int STREAM_LISTPACKS = 15;
    static final int HASH_LISTPACK = 16;
    static final int ZSET_LISTPACK = 17;
    static final int LIST_QUICKLIST_2 = 18;
    static final int STREAM_LISTPACKS_2 = 19;
    private static final int NODE_PLAIN = 1;
    private static final int NODE_PACKED = 2;

    private RdbDecoder() {
    }

    /** The value of a verified payload. */
    public static RdbValue decode(byte[] payload) {
        // Redis reads the value from the whole buffer, footer included.
        RdbInput in = new RdbInput(payload, payload.length);
        int type = in.readByte();
        switch (type) {
            case STRING: return new StringValue(in.readString());
            case LIST: return list(strings(in, in.readLength()));
            case SET: return set(strings(in, in.readLength()));
            case ZSET: case ZSET_2: return zsetOfScores(in, type == ZSET_2);
            case HASH: return hash(strings(in, 2 * in.readLength()));
            case HASH_ZIPMAP: return hash(Zipmap.entries(in.readString()));
            case LIST_ZIPLIST: return list(Ziplist.entries(in.readString()));
            case SET_INTSET: return set(Intset.members(in.readString()));
            case ZSET_ZIPLIST: return zsetOfPairs(Ziplist.entries(in.readString()));
            case HASH_ZIPLIST: return hash(Ziplist.entries(in.readString()));
            case LIST_QUICKLIST: case LIST_QUICKLIST_2: return quicklist(in, type == LIST_QUICKLIST_2);
            case HASH_LISTPACK: return hash(Listpack.entries(in.readString()));
            case ZSET_LISTPACK: return zsetOfPairs(Listpack.entries(in.readString()));
            case STREAM_LISTPACKS: case STREAM_LISTPACKS_2: return StreamPayload.read(in, type == STREAM_LISTPACKS_2);
            case MODULE: case MODULE_2:
                throw new UnsupportedValueException("module values are not supported by this server");
            default:
                throw new RdbFormatException("unknown RDB type " + type);
        }
    }

    private static List<byte[]> strings(RdbInput in, long count) {
        List<byte[]> out = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            out.add(in.readString());
        }
        return out;
    }

    private static ListValue list(List<byte[]> elements) {
        nonEmpty(elements);
        return new ListValue(elements);
    }

    private static ListValue quicklist(RdbInput in, boolean withContainers) {
        long nodes = in.readLength();
        List<byte[]> elements = new ArrayList<>();
        for (long i = 0; i < nodes; i++) {
            long container = withContainers ? in.readLength() : NODE_PACKED;
            if (container != NODE_PLAIN && container != NODE_PACKED) {
                throw new RdbFormatException("Quicklist integrity check failed.");
            }
            byte[] data = in.readString();
            if (data.length == 0) {
                throw new RdbFormatException("empty quicklist node");
            }
            if (container == NODE_PLAIN) {
                elements.add(data);
            } else {
                // Redis skips empty nodes silently; an all-empty list still fails below.
                elements.addAll(withContainers ? Listpack.entries(data) : Ziplist.entries(data));
            }
        }
        return list(elements);
    }

    private static SetValue set(List<byte[]> members) {
        nonEmpty(members);
        Set<ByteBuffer> seen = new HashSet<>();
        for (byte[] m : members) {
            if (!seen.add(ByteBuffer.wrap(m))) {
                throw new RdbFormatException("Duplicate set members detected");
            }
        }
        return new SetValue(members);
    }

    private static HashValue hash(List<byte[]> pairs) {
        if (pairs.size() % 2 != 0) {
            throw new RdbFormatException("odd number of hash entries");
        }
        nonEmpty(pairs);
        List<byte[]> fields = new ArrayList<>(pairs.size() / 2);
        List<byte[]> values = new ArrayList<>(pairs.size() / 2);
        Set<ByteBuffer> seen = new HashSet<>();
        for (int i = 0; i < pairs.size(); i += 2) {
            if (!seen.add(ByteBuffer.wrap(pairs.get(i)))) {
                throw new RdbFormatException("Duplicate hash fields detected");
            }
            fields.add(pairs.get(i));
            values.add(pairs.get(i + 1));
        }
        return new HashValue(fields, values);
    }

    private static ZSetValue zsetOfScores(RdbInput in, boolean binary) {
        long count = in.readLength();
        List<byte[]> members = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            members.add(in.readString());
            scores.add(binary ? in.readBinaryDouble() : in.readTextDouble());
        }
        return zset(members, scores);
    }

    private static ZSetValue zsetOfPairs(List<byte[]> pairs) {
        if (pairs.size() % 2 != 0) {
            throw new RdbFormatException("odd number of sorted set entries");
        }
        List<byte[]> members = new ArrayList<>(pairs.size() / 2);
        List<Double> scores = new ArrayList<>(pairs.size() / 2);
        for (int i = 0; i < pairs.size(); i += 2) {
            members.add(pairs.get(i));
            scores.add(ScoreText.parse(pairs.get(i + 1)));
        }
        return zset(members, scores);
    }

    private static ZSetValue zset(List<byte[]> members, List<Double> scores) {
        nonEmpty(members);
        Set<ByteBuffer> seen = new HashSet<>();
        for (int i = 0; i < members.size(); i++) {
            if (Double.isNaN(scores.get(i))) {
                throw new RdbFormatException("Zset with NAN score detected");
            }
            if (!seen.add(ByteBuffer.wrap(members.get(i)))) {
                throw new RdbFormatException("Duplicate zset fields detected");
            }
        }
        return new ZSetValue(members, scores);
    }

    private static void nonEmpty(List<?> items) {
        if (items.isEmpty()) {
            throw new RdbFormatException("empty keys are not allowed");
        }
    }
}
