/**
 * RESP on the wire: requests decoded from bytes ({@code RespDecoder}, with Redis's limits and
 * protocol errors), replies as values ({@code Reply}) written as RESP2 or RESP3
 * ({@code RespEncoder}), and error replies as exceptions ({@code RedisException}). Depends on
 * Netty's buffers only.
 */
package io.strata.redis.protocol;
