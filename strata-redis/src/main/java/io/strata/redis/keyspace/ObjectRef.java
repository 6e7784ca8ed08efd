package io.strata.redis.keyspace;

import java.util.Arrays;

/**
 * The object id at the start of an object-holding key's payload: one length byte, then the
 * id's bytes (a High Contention Allocator prefix, a few bytes). What follows is the type's
 * header.
 */
public final class ObjectRef {
    private ObjectRef() {
    }

    /** A payload of {@code id} followed by {@code header}. */
    public static byte[] payload(byte[] id, byte[] header) {
        byte[] p = new byte[1 + id.length + header.length];
        p[0] = (byte) id.length;
        System.arraycopy(id, 0, p, 1, id.length);
        System.arraycopy(header, 0, p, 1 + id.length, header.length);
        return p;
    }

    public static byte[] id(KeyMeta meta) {
        byte[] p = meta.payload();
        return Arrays.copyOfRange(p, 1, 1 + (p[0] & 0xff));
    }

    /** The type's header after the id. */
    public static byte[] header(KeyMeta meta) {
        byte[] p = meta.payload();
        return Arrays.copyOfRange(p, 1 + (p[0] & 0xff), p.length);
    }

    /** The metadata with another header, same id. */
    public static KeyMeta withHeader(KeyMeta meta, byte[] header) {
        return meta.withPayload(payload(id(meta), header));
    }

    static boolean sameObject(KeyMeta a, KeyMeta b) {
        return Arrays.equals(id(a), id(b));
    }
}
