/**
 * Publish/subscribe across every server process that shares the database: a queue of
 * messages in commit order ({@code MessageLog}), one reader per process that delivers it to
 * local subscribers ({@code MessageReader}, {@code PubSubHub}), subscription counts kept in
 * the database for PUBLISH's reply and PUBSUB ({@code SubscriptionRegistry}), and leases
 * that decide when the queue may be trimmed ({@code ReaderLease}). {@code PubSub} is what
 * commands and the server use.
 */
package io.strata.redis.pubsub;
