/**
 * Redis 7.0's DUMP payload: one RDB-serialized value followed by the RDB version and a CRC-64,
 * read ({@link io.strata.redis.rdb.RdbDecoder}) from every encoding Redis 7.0 loads and
 * written ({@link io.strata.redis.rdb.RdbEncoder}) in plain encodings Redis 7.0 loads. Pure
 * codecs: nothing here touches the database, and nothing holds state between calls (a
 * decode or encode uses its own cursor or buffer), so every entry point is thread-safe.
 */
package io.strata.redis.rdb;
