package io.strata.redis.acl;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Passwords as Redis keeps them: the SHA-256 of the password's bytes in lower-case hex, compared in constant time. */
final class Passwords {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Passwords() {
    }

    static String hash(byte[] password) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(password);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
        char[] out = new char[64];
        for (int i = 0; i < 32; i++) {
            out[i * 2] = HEX[(digest[i] >> 4) & 0xf];
            out[i * 2 + 1] = HEX[digest[i] & 0xf];
        }
        return new String(out);
    }

    /** Whether {@code hash} is 64 lower-case hex characters, as {@code #hash} and {@code !hash} need. */
    static boolean isValidHash(String hash) {
        if (hash.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = hash.charAt(i);
            if ((c < 'a' || c > 'f') && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    /** Compares two hashes of equal length without an early exit, so timing tells nothing about them. */
    static boolean same(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        int diff = 0;
        for (int i = 0; i < a.length(); i++) {
            diff |= a.charAt(i) ^ b.charAt(i);
        }
        return diff == 0;
    }
}
