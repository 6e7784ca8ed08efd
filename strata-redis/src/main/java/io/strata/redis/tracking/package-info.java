/**
 * Client-side caching (Redis 6+'s {@code CLIENT TRACKING}): which clients may hold which keys
 * in a local cache, and the invalidation messages sent when those keys change.
 *
 * <p>{@link io.strata.redis.tracking.ClientTracking} is the one entry point: the CLIENT
 * subcommands configure a connection through it, the command executor tells it which keys a
 * read-only command fetched and which connection is running in which transaction, the key
 * store tells it which keys a transaction changed, and once that transaction has committed
 * it sends the invalidations. Everything here lives in the server process's memory, as in
 * Redis: invalidations reach the clients of the process whose commands changed the keys.
 *
 * <p>May depend on {@code command} (sessions, replies) and {@code protocol}; nothing in the
 * keyspace depends on it.
 */
package io.strata.redis.tracking;
