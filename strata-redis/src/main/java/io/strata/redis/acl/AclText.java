package io.strata.redis.acl;

import java.nio.charset.StandardCharsets;

/**
 * ACL text is bytes: user names, passwords and patterns are kept as strings whose characters
 * are the bytes (ISO-8859-1), so they round-trip exactly between requests, replies and storage.
 */
public final class AclText {
    private AclText() {
    }

    public static String of(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
