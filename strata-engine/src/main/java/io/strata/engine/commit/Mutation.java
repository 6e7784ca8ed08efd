package io.strata.engine.commit;

/**
 * One write of a transaction, as sent to the commit pipeline, in the order the client issued it.
 *
 * <p>{@code type} is {@link #SET_VALUE}, {@link #CLEAR_RANGE} or a FoundationDB atomic
 * mutation code ({@code MutationType.code()}, 2..20), which the pipeline evaluates against
 * the newest value at commit — never the client.
 *
 * @param type  what to do
 * @param key   the key, or the begin of a cleared range
 * @param param the value, the atomic operand, or the (exclusive) end of a cleared range
 */
public record Mutation(int type, byte[] key, byte[] param) {
    /** FoundationDB's {@code MutationRef::SetValue}. */
    public static final int SET_VALUE = 0;
    /** FoundationDB's {@code MutationRef::ClearRange}; a point clear is {@code [k, k\x00)}. */
    public static final int CLEAR_RANGE = 1;
    public static final int SET_VERSIONSTAMPED_KEY = 14;
    public static final int SET_VERSIONSTAMPED_VALUE = 15;

    /** Bytes this mutation adds to the transaction size, as FoundationDB counts them. */
    public int size() {
        return key.length + param.length;
    }
}
