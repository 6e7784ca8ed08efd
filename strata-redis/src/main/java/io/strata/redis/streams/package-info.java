/**
 * The stream type of Redis 7.0: entries by ID in the key's object subspace, the stream's
 * counters in its metadata, consumer groups with their consumers and pending entries beside
 * the entries ({@code StreamValue} and {@code ConsumerGroup} give the key layout), and the
 * X* commands. XREAD and XREADGROUP with BLOCK wait through {@code io.strata.redis.blocking}.
 */
package io.strata.redis.streams;
