package io.strata.redis.keyspace;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A key's metadata record: its type, its expiry, and a type-specific payload. For a string the
 * payload is the value itself when it fits ({@link #inlineString}), else the id of the blob
 * that holds it; for a collection it is the id of the object subspace that holds the elements
 * followed by whatever header the type keeps (see each type's store).
 *
 * <h2>Encoding</h2>
 * <pre>
 * byte 0      type code ({@link RedisType#code()})
 * byte 1      flags: bit 0 = the payload is an object id, not an inline value
 * bytes 2..9  expiry: Unix milliseconds, big-endian; 0 = no expiry
 * bytes 10..  payload
 * </pre>
 *
 * @param type the key's type
 * @param flags encoding flags
 * @param expireAtMillis Unix milliseconds after which the key no longer exists; 0 for none
 * @param payload the type's payload
 */
public record KeyMeta(RedisType type, int flags, long expireAtMillis, byte[] payload) {
    /** Flag: the payload starts with an object id. */
    public static final int OBJECT = 1;
    static final int HEADER = 10;

    public static KeyMeta inlineString(byte[] value, long expireAtMillis) {
        return new KeyMeta(RedisType.STRING, 0, expireAtMillis, value);
    }

    public boolean hasExpiry() {
        return expireAtMillis != 0;
    }

    /** Whether the key has expired at {@code nowMillis} (Redis: expired when {@code now > when}). */
    public boolean expiredAt(long nowMillis) {
        return expireAtMillis != 0 && expireAtMillis <= nowMillis;
    }

    public boolean isObject() {
        return (flags & OBJECT) != 0;
    }

    public KeyMeta withExpiry(long at) {
        return new KeyMeta(type, flags, at, payload);
    }

    public KeyMeta withPayload(byte[] p) {
        return new KeyMeta(type, flags, expireAtMillis, p);
    }

    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(HEADER + payload.length);
        b.put(type.code()).put((byte) flags).putLong(expireAtMillis).put(payload);
        return b.array();
    }

    public static KeyMeta decode(byte[] v) {
        ByteBuffer b = ByteBuffer.wrap(v);
        RedisType type = RedisType.of(b.get());
        int flags = b.get() & 0xff;
        long expire = b.getLong();
        return new KeyMeta(type, flags, expire, Arrays.copyOfRange(v, HEADER, v.length));
    }
}
