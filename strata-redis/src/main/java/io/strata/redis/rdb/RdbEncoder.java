package io.strata.redis.rdb;

import io.strata.redis.rdb.RdbValue.HashValue;
import io.strata.redis.rdb.RdbValue.ListValue;
import io.strata.redis.rdb.RdbValue.SetValue;
import io.strata.redis.rdb.RdbValue.StreamData;
import io.strata.redis.rdb.RdbValue.StringValue;
import io.strata.redis.rdb.RdbValue.ZSetValue;

import java.util.List;

/**
 * Writes a DUMP payload, in encodings Redis 7.0 loads (checked against redis-server
 * 7.0.15): strings as RDB type 0, lists as the plain list (type 1: a length and the
 * elements), sets as the plain set (2), hashes as the plain hash (4), sorted sets as ZSET_2
 * (5: binary scores), streams as Redis 7.0 writes them (19, {@link StreamPayload}). Redis 7.0 itself writes the compact encodings for small values
 * (listpacks, intsets, quicklist nodes); on loading a plain value it converts it to those
 * under its own thresholds, so both are equally good inputs to RESTORE.
 *
 * <p>Strings are not LZF-compressed (Redis compresses strings over 20 bytes when
 * {@code rdbcompression} is on): loading accepts both, a payload's bytes need not match
 * Redis's, and leaving compression out keeps DUMP simple and cheap at the cost of larger
 * payloads for compressible values.
 */
public final class RdbEncoder {
    private RdbEncoder() {
    }

    public static byte[] encode(RdbValue value) {
        RdbOutput out = new RdbOutput();
        if (value instanceof StringValue s) {
            out.writeByte(RdbDecoder.STRING);
            out.writeString(s.value());
        } else if (value instanceof ListValue l) {
            out.writeByte(RdbDecoder.LIST);
            strings(out, l.elements());
        } else if (value instanceof SetValue s) {
            out.writeByte(RdbDecoder.SET);
            strings(out, s.members());
        } else if (value instanceof HashValue h) {
            out.writeByte(RdbDecoder.HASH);
            out.writeLength(h.fields().size());
            for (int i = 0; i < h.fields().size(); i++) {
                out.writeString(h.fields().get(i));
                out.writeString(h.values().get(i));
            }
        } else if (value instanceof ZSetValue z) {
            out.writeByte(RdbDecoder.ZSET_2);
            out.writeLength(z.members().size());
            for (int i = 0; i < z.members().size(); i++) {
                out.writeString(z.members().get(i));
                out.writeBinaryDouble(z.scores().get(i));
            }
        } else if (value instanceof StreamData s) {
            out.writeByte(RdbDecoder.STREAM_LISTPACKS_2);
            StreamPayload.write(out, s);
        }
        return DumpPayload.seal(out.toByteArray());
    }

    private static void strings(RdbOutput out, List<byte[]> items) {
        out.writeLength(items.size());
        for (byte[] item : items) {
            out.writeString(item);
        }
    }
}
