package io.strata.redis.pubsub;

import java.nio.ByteBuffer;

/**
 * A channel, pattern or shard channel by value (its bytes compared as content), the key of
 * every map of subscriptions.
 */
record ChannelName(ChannelKind kind, ByteBuffer name) {
    static ChannelName of(ChannelKind kind, byte[] name) {
        return new ChannelName(kind, ByteBuffer.wrap(name.clone()).asReadOnlyBuffer());
    }

    byte[] bytes() {
        byte[] b = new byte[name.remaining()];
        name.duplicate().get(b);
        return b;
    }
}
