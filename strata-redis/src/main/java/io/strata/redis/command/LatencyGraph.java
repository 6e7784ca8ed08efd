package io.strata.redis.command;

import java.util.List;
import java.util.Locale;

/**
 * LATENCY GRAPH's picture of an event's samples, drawn as Redis draws it: a title with the
 * highest and lowest sample and the all-time high, a rule of 80 dashes, then the samples as
 * bars four rows high, one column each, oldest first, scaled between the lowest and highest
 * sample (each row in three steps: {@code _}, {@code o}, {@code #}; {@code |} below a bar's
 * top), and under each bar how long ago it was taken, written downwards ({@code 12s},
 * {@code 3m}, {@code 2h}, {@code 1d}). More than 80 samples wrap into further blocks.
 */
public final class LatencyGraph {
    static final int COLUMNS = 80;
    static final int ROWS = 4;
    private static final String STEPS = "_o#";

    private LatencyGraph() {
    }

    public static String draw(LatencyMonitor.Series series, long nowSeconds) {
        List<LatencyMonitor.Sample> samples = series.samples();
        long high = 0;
        long low = Long.MAX_VALUE;
        for (LatencyMonitor.Sample s : samples) {
            high = Math.max(high, s.millis());
            low = Math.min(low, s.millis());
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%s - high %d ms, low %d ms (all time high %d ms)\n",
                series.event(), high, low, series.maxMillis()));
        out.append("-".repeat(COLUMNS)).append('\n');
        for (int from = 0; from < samples.size(); from += COLUMNS) {
            if (from > 0) {
                out.append('\n');
            }
            block(out, samples.subList(from, Math.min(samples.size(), from + COLUMNS)), low, high, nowSeconds);
        }
        return out.toString();
    }

    /** The bars of {@code samples}, a blank row, then their labels downwards. */
    private static void block(StringBuilder out, List<LatencyMonitor.Sample> samples, long low, long high, long nowSeconds) {
        int steps = STEPS.length() * ROWS;
        double range = high == low ? 1 : high - low;
        String[] labels = new String[samples.size()];
        int[] step = new int[samples.size()];
        int longest = 0;
        for (int i = 0; i < samples.size(); i++) {
            step[i] = (int) Math.max(0, Math.min(steps - 1, (samples.get(i).millis() - low) * steps / range));
            labels[i] = ago(nowSeconds - samples.get(i).unixSeconds());
            longest = Math.max(longest, labels[i].length());
        }
        char[] line = new char[samples.size()];
        for (int row = 0; row < ROWS; row++) {
            for (int i = 0; i < line.length; i++) {
                int at = step[i] - (ROWS - row - 1) * STEPS.length();
                line[i] = at < 0 ? ' ' : at < STEPS.length() ? STEPS.charAt(at) : '|';
            }
            out.append(line).append('\n');
        }
        out.append(" ".repeat(line.length)).append('\n');
        for (int c = 0; c < longest; c++) {
            for (int i = 0; i < line.length; i++) {
                line[i] = c < labels[i].length() ? labels[i].charAt(c) : ' ';
            }
            out.append(line).append('\n');
        }
    }

    /** How long ago, in Redis's units: seconds under a minute, minutes under an hour, then hours, then days. */
    static String ago(long seconds) {
        if (seconds < 60) {
            return Math.max(0, seconds) + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m";
        }
        if (seconds < 86400) {
            return seconds / 3600 + "h";
        }
        return seconds / 86400 + "d";
    }
}
