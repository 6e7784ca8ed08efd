package io.strata.redis.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Client arguments echoed in error replies, byte for byte as Redis echoes them.
 *
 * <p>Redis builds such errors with {@code printf}'s {@code %s} / {@code %.128s} on the
 * argument's buffer, so it sends the argument's own bytes (invalid UTF-8 included), up to its
 * first NUL, at most 128 bytes for {@code %.128s}. An error's message here is a Java string,
 * so {@link #of} keeps each byte of 0x80 and above as the lone surrogate
 * {@code U+DC00 + byte} (Python's "surrogateescape"; a UTF-8 decoder never produces one), one
 * character per byte so limits count bytes, and {@link #encode} turns those back into the
 * bytes when the reply is written. Other characters are written as UTF-8.
 *
 * <p>Newlines: Redis maps {@code \r} and {@code \n} to spaces in every such error (the encoder
 * does that for all errors); errors made with {@code addReplyErrorFormat} first strip them from
 * both ends of the message — {@link #trimmed} — so {@code EXPIRE k 10 "\n"} answers
 * {@code ERR Unsupported option } with one trailing space.
 */
public final class ErrorText {
    private static final char RAW_BASE = 0xDC00;

    private ErrorText() {
    }

    /** {@code arg} as C's {@code %s} prints it: up to its first NUL, its bytes kept. */
    public static String of(byte[] arg) {
        return of(arg, Integer.MAX_VALUE);
    }

    /** {@code arg} as C's {@code %.<max>s} prints it: up to its first NUL, at most {@code max} bytes. */
    public static String of(byte[] arg, int max) {
        int n = Math.min(arg.length, Math.max(max, 0));
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n && arg[i] != 0; i++) {
            int b = arg[i] & 0xff;
            sb.append(b < 0x80 ? (char) b : (char) (RAW_BASE + b));
        }
        return sb.toString();
    }

    /** What {@code addReplyErrorFormat} does before sending: strips {@code \r} and {@code \n} from both ends. */
    public static String trimmed(String message) {
        int begin = 0;
        int end = message.length();
        while (begin < end && isNewline(message.charAt(begin))) {
            begin++;
        }
        while (end > begin && isNewline(message.charAt(end - 1))) {
            end--;
        }
        return message.substring(begin, end);
    }

    /**
     * The bytes of an error line's text: {@code \r} and {@code \n} as spaces (a reply line must
     * not break the protocol), the characters {@link #of} made back into their bytes, the rest
     * in UTF-8.
     */
    public static byte[] encode(String message) {
        boolean plain = true;
        for (int i = 0; i < message.length() && plain; i++) {
            char c = message.charAt(i);
            plain = c < 0x80 && !isNewline(c);
        }
        if (plain) {
            return message.getBytes(StandardCharsets.US_ASCII);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(message.length() + 8);
        int runStart = 0;
        for (int i = 0; i <= message.length(); i++) {
            char c = i < message.length() ? message.charAt(i) : 0;
            boolean special = i == message.length() || isNewline(c) || (c >= RAW_BASE + 0x80 && c <= RAW_BASE + 0xff);
            if (!special) {
                continue;
            }
            out.writeBytes(message.substring(runStart, i).getBytes(StandardCharsets.UTF_8));
            if (i < message.length()) {
                out.write(isNewline(c) ? ' ' : c - RAW_BASE);
            }
            runStart = i + 1;
        }
        return out.toByteArray();
    }

    private static boolean isNewline(char c) {
        return c == '\r' || c == '\n';
    }
}
