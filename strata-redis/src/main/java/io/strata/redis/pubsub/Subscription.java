package io.strata.redis.pubsub;

import io.strata.redis.command.ClientSession;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * One client's subscription to one channel, pattern or shard channel, and the stretch of the
 * queue it receives: messages stamped after its registration committed ({@code since}) and
 * before its unregistration committed ({@code until}). Between those two commits exactly
 * the publishes that counted it are delivered to it.
 *
 * <p>Concurrency: {@code since}, {@code until} and {@code leaving} are guarded by the
 * {@link PubSubHub}'s lock; {@link #registered} completes once, from the registering
 * transaction's callback.
 */
final class Subscription {
    final ClientSession session;
    final ChannelName name;
    /** Completes with whether the registration committed (false: it failed, nothing to undo). */
    final CompletableFuture<Boolean> registered = new CompletableFuture<>();
    /** The versionstamp of the registering commit; null until it committed. */
    private byte[] since;
    /** The versionstamp of the unregistering commit; null while open or not yet committed. */
    private byte[] until;
    /** Unsubscribed by its client (its unregistration is someone's to commit). */
    private boolean leaving;

    Subscription(ClientSession session, ChannelName name) {
        this.session = session;
        this.name = name;
    }

    /** Whether a message stamped {@code stamp} is this subscription's to receive. */
    boolean receives(byte[] stamp) {
        return since != null && Arrays.compareUnsigned(since, stamp) < 0
                && (until == null || Arrays.compareUnsigned(stamp, until) < 0);
    }

    void since(byte[] stamp) {
        since = stamp;
    }

    void until(byte[] stamp) {
        until = stamp;
    }

    boolean active() {
        return since != null && !leaving;
    }

    boolean leaving() {
        return leaving;
    }

    void leave() {
        leaving = true;
    }
}
