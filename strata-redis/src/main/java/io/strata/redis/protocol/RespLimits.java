package io.strata.redis.protocol;

/**
 * Redis's request limits, with its defaults: what one request may carry before the server
 * refuses it with a protocol error.
 *
 * @param maxBulkBytes {@code proto-max-bulk-len}: the largest argument (512 MB)
 * @param maxInlineBytes {@code PROTO_INLINE_MAX_SIZE}: the longest inline request or count line (64 KB)
 * @param maxArguments the most arguments of one request (Redis: {@code INT_MAX}; 1,048,576 here
 *     would refuse what Redis accepts, so the bound is Redis's)
 * @param unauthenticatedMaxArguments arguments a client that must still authenticate may send (10)
 * @param unauthenticatedMaxBulkBytes argument size such a client may send (16 KB)
 * @param maxQueryBytes {@code client-query-buffer-limit}: the most bytes of one request held
 *     before it is complete (1 GB); past it the connection closes without a reply, as in Redis
 */
public record RespLimits(long maxBulkBytes, int maxInlineBytes, long maxArguments,
                         int unauthenticatedMaxArguments, int unauthenticatedMaxBulkBytes, long maxQueryBytes) {

    /** Redis 7.0's defaults. */
    public static final RespLimits REDIS_DEFAULTS = new RespLimits(512L * 1024 * 1024, 64 * 1024, Integer.MAX_VALUE, 10,
            16 * 1024, 1024L * 1024 * 1024);

    /** The same limits with another {@code proto-max-bulk-len}. */
    public RespLimits withMaxBulkBytes(long bytes) {
        return new RespLimits(bytes, maxInlineBytes, maxArguments, unauthenticatedMaxArguments, unauthenticatedMaxBulkBytes,
                maxQueryBytes);
    }

    /** The same limits with another {@code client-query-buffer-limit}. */
    public RespLimits withMaxQueryBytes(long bytes) {
        return new RespLimits(maxBulkBytes, maxInlineBytes, maxArguments, unauthenticatedMaxArguments,
                unauthenticatedMaxBulkBytes, bytes);
    }
}
