package io.strata.redis.keyspace;

/** The types a key can hold, with the code stored in its metadata and the name TYPE answers. */
public enum RedisType {
    STRING('s', "string"),
    LIST('l', "list"),
    SET('t', "set"),
    ZSET('z', "zset"),
    HASH('h', "hash"),
    STREAM('x', "stream");

    private final byte code;
    private final String typeName;

    RedisType(char code, String typeName) {
        this.code = (byte) code;
        this.typeName = typeName;
    }

    public byte code() {
        return code;
    }

    /** The name {@code TYPE} and {@code SCAN ... TYPE} use. */
    public String typeName() {
        return typeName;
    }

    public static RedisType of(byte code) {
        for (RedisType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        throw new IllegalStateException("unknown type code " + code);
    }

    /** The type named (any case), or null. */
    public static RedisType named(String name) {
        for (RedisType t : values()) {
            if (t.typeName.equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }
}
