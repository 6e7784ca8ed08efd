package io.strata.cli.shell;

/**
 * How fdbcli writes bytes back to the user, in its two forms.
 *
 * <ul>
 *   <li>{@link #printable}: keys and values in command output ({@code `key' is `value'}).
 *       FoundationDB's {@code StringRef::printable()} (flow's {@code TraceableStringImpl}):
 *       bytes 32–126 as themselves except the backslash, which doubles; every other byte as
 *       {@code \xNN} in lower-case hex.</li>
 *   <li>{@link #token}: a command's own words when fdbcli echoes or names them (fdbcli's
 *       {@code formatStringRef}). Plain, it leaves the backslash alone; {@code escaped}, as
 *       fdbcli echoes each command of a {@code ;}-separated line, it also writes the backslash
 *       as {@code \\}, the quote as {@code \"} and the space as {@code \x20}, so that the echo
 *       can be typed back in.</li>
 * </ul>
 * Both read the {@link Tokenizer}'s escapes back to the same bytes, so keys round-trip.
 */
public final class Printable {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Printable() {}

    /** {@code bytes} as fdbcli prints keys and values. */
    public static String printable(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length + 8);
        for (byte b : bytes) {
            if (b == '\\') {
                out.append("\\\\");
            } else if (b >= 32 && b <= 126) {
                out.append((char) b);
            } else {
                hex(out, b);
            }
        }
        return out.toString();
    }

    /** {@code bytes} as fdbcli names a command's word; {@code escaped} as in its {@code >>>} echo. */
    public static String token(byte[] bytes, boolean escaped) {
        StringBuilder out = new StringBuilder(bytes.length + 8);
        for (byte b : bytes) {
            if (escaped && b == '\\') {
                out.append("\\\\");
            } else if (escaped && b == '"') {
                out.append("\\\"");
            } else if (escaped && b == ' ') {
                hex(out, b);
            } else if (b >= 32 && b < 127) {
                out.append((char) b);
            } else {
                hex(out, b);
            }
        }
        return out.toString();
    }

    private static void hex(StringBuilder out, byte b) {
        out.append('\\').append('x').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    }
}
