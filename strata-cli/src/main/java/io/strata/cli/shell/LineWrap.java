package io.strata.cli.shell;

/**
 * fdbcli's two ways of wrapping text at a column, which differ in one step: {@code printAtCol}
 * (help text) and {@code lineWrap} (status text). Both break a line at the last blank before
 * the column (or at the column when a line has none) and at each line feed, and end every line
 * with a line feed.
 */
final class LineWrap {
    private LineWrap() {}

    /**
     * fdbcli's {@code printAtCol}: after a break, the blank or line feed it broke at is
     * skipped. A line feed at the very end gives one empty line more, as fdbcli's does: that is
     * what spaces the entries of {@code help options}.
     */
    static String printAtCol(String text, int col) {
        return wrap(text, col, true);
    }

    /**
     * fdbcli's {@code lineWrap}: like {@link #printAtCol}, but after a break at a line feed the
     * next line keeps it (only a blank is skipped).
     */
    static String lineWrap(String text, int col) {
        return wrap(text, col, false);
    }

    private static String wrap(String text, int col, boolean skipLineFeed) {
        StringBuilder out = new StringBuilder();
        int n = text.length();
        int start = 0;
        int space = -1;
        int i = 0;
        do {
            i++;
            char c = i < n ? text.charAt(i) : '\0';
            if (c == '\n' || c == ' ' || c == '\0') {
                space = i;
            }
            if (c == '\n' || c == '\0' || i - start == col) {
                if (space < 0) {
                    space = i;
                }
                out.append(text, start, Math.min(space, n)).append('\n');
                start = space;
                char s = start < n ? text.charAt(start) : '\0';
                if (s == ' ' || (skipLineFeed && s == '\n')) {
                    start++;
                }
                space = -1;
            }
        } while (i < n);
        return out.toString();
    }
}
