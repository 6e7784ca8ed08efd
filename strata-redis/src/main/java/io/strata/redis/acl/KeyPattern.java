package io.strata.redis.acl;

import io.strata.redis.command.KeySpecs;

/**
 * A key pattern of a selector and what it allows: read ({@code %R~}), write ({@code %W~}) or
 * both ({@code ~}, also written {@code %RW~}). Mutable only while rules are applied to a copy
 * of a user (see {@link AclUser}).
 */
final class KeyPattern {
    static final int ALL = KeySpecs.READ | KeySpecs.WRITE;

    final String pattern;
    int access;

    KeyPattern(String pattern, int access) {
        this.pattern = pattern;
        this.access = access;
    }

    /** As ACL LIST and GETUSER print it. */
    String describe() {
        String prefix = access == ALL ? "~" : access == KeySpecs.READ ? "%R~" : "%W~";
        return prefix + pattern;
    }
}
