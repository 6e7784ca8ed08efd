/**
 * Redis 7.0's DUMP payload: one RDB-serialized value followed by the RDB version and a CRC-64,
 * read ({@link io.strata.redis.rdb.RdbDecoder}) from every encoding Redis 7.0 loads and
 * written ({@link io.strata.redis.rdb.RdbEncoder}) in plain encodings Redis 7.0 loads. Pure
 * codecs: nothing here touches the database.
 */
package io.strata.redis.rdb;
