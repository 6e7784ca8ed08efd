/**
 * The network side: {@code RedisServer} listens with Netty (epoll where available) and gives
 * each connection a {@code ClientConnection} that runs its requests in order.
 */
package io.strata.redis.server;
