package io.strata.redis.pubsub;

import io.strata.redis.protocol.Reply;

/**
 * The three things a client subscribes to, with the words Redis 7.0 uses for each in its
 * confirmations and messages. Shard channels are a namespace of their own, as in Redis:
 * PUBLISH never reaches SSUBSCRIBE and patterns never match SPUBLISH.
 */
public enum ChannelKind {
    CHANNEL('c', "subscribe", "unsubscribe", "message"),
    PATTERN('p', "psubscribe", "punsubscribe", "pmessage"),
    SHARD('s', "ssubscribe", "sunsubscribe", "smessage");

    /** The byte that names the kind in keys. */
    final byte tag;
    /**
     * The byte that names the kind in the keys of a name too long to be a key itself
     * ({@link PubSubKeys}): {@code tag + 1}, so that one kind's counts are one range.
     */
    final byte longTag;
    final Reply subscribeWord;
    final Reply unsubscribeWord;
    final Reply messageWord;

    ChannelKind(char tag, String subscribe, String unsubscribe, String message) {
        this.tag = (byte) tag;
        this.longTag = (byte) (tag + 1);
        this.subscribeWord = Reply.bulk(subscribe);
        this.unsubscribeWord = Reply.bulk(unsubscribe);
        this.messageWord = Reply.bulk(message);
    }

    static ChannelKind ofTag(byte tag) {
        for (ChannelKind k : values()) {
            if (k.tag == tag) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown channel kind " + tag);
    }
}
