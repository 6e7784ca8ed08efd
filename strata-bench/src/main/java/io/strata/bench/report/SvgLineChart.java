package io.strata.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * A line chart as a self-contained SVG file, written without a library: one or more panels
 * side by side, each with its own y scale (so a full-speed engine and a cluster-latency one
 * are both readable), x and y axes labelled, and one legend under the panels.
 *
 * <p>The x axis is logarithmic with a tick at every x value present (concurrency levels such
 * as 1, 2, 5, 10, 20, 50 are spread evenly rather than crowded at the left); the y axis is
 * linear from zero with round ticks. A series keeps its colour in every panel.
 */
public final class SvgLineChart {
    /** One line: x and y of the same length, in increasing x. */
    public record Series(String name, double[] x, double[] y) {
        public Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException("x and y differ in length");
            }
        }
    }

    /** One plot area with its title and lines. */
    public record Panel(String title, List<Series> series) {}

    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
    private static final int PANEL_WIDTH = 460;
    private static final int PANEL_HEIGHT = 320;
    private static final int LEFT = 72;
    private static final int RIGHT = 18;
    private static final int TOP = 56;
    private static final int BOTTOM = 48;
    private static final int LEGEND_ROW = 20;

    private SvgLineChart() {}

    /** Writes {@code file}: {@code title} over the panels, axis labels on each. */
    public static void write(Path file, String title, String xLabel, String yLabel, List<Panel> panels) throws IOException {
        Files.writeString(file, render(title, xLabel, yLabel, panels), StandardCharsets.UTF_8);
    }

    static String render(String title, String xLabel, String yLabel, List<Panel> panels) {
        List<String> names = new ArrayList<>();
        for (Panel p : panels) {
            for (Series s : p.series()) {
                if (!names.contains(s.name())) {
                    names.add(s.name());
                }
            }
        }
        int width = Math.max(1, panels.size()) * PANEL_WIDTH;
        int legendTop = TOP + PANEL_HEIGHT + BOTTOM;
        int height = legendTop + LEGEND_ROW * Math.max(1, names.size()) + 10;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">\n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
                width / 2, escape(title)));
        for (int i = 0; i < panels.size(); i++) {
            panel(svg, i * PANEL_WIDTH, panels.get(i), names, xLabel, yLabel);
        }
        for (int i = 0; i < names.size(); i++) {
            int y = legendTop + LEGEND_ROW * i + 8;
            String colour = COLOURS[i % COLOURS.length];
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                            + "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                    LEFT, y, LEFT + 30, y, colour, LEFT + 15, y, colour, LEFT + 38, y + 4, escape(names.get(i))));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void panel(StringBuilder svg, int left, Panel panel, List<String> names, String xLabel, String yLabel) {
        int x0 = left + LEFT;
        int x1 = left + PANEL_WIDTH - RIGHT;
        int y0 = TOP + PANEL_HEIGHT; // bottom of the plot area; the x labels go below it
        int y1 = TOP;
        TreeSet<Double> xs = new TreeSet<>();
        double maxY = 0;
        for (Series s : panel.series()) {
            for (int i = 0; i < s.x().length; i++) {
                if (s.x()[i] > 0) {
                    xs.add(s.x()[i]);
                }
                if (Double.isFinite(s.y()[i])) {
                    maxY = Math.max(maxY, s.y()[i]);
                }
            }
        }
        double step = niceStep(maxY);
        double top = maxY <= 0 ? 1 : Math.ceil(maxY / step) * step;
        double lo = xs.isEmpty() ? 1 : Math.log(xs.first());
        double hi = xs.isEmpty() ? 1 : Math.log(xs.last());
        XScale sx = x -> hi == lo ? (x0 + x1) / 2.0 : x0 + (Math.log(x) - lo) / (hi - lo) * (x1 - x0);
        java.util.function.DoubleUnaryOperator sy = y -> y0 - y / top * (y0 - y1);

        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">%s</text>\n",
                (x0 + x1) / 2, TOP - 12, escape(panel.title())));
        for (double t = 0; t <= top + step / 2; t += step) {
            double y = sy.applyAsDouble(t);
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    x0, y, x1, y, x0 - 6, y + 4, tick(t)));
        }
        for (double x : xs) {
            double px = sx.at(x);
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                    px, y0, px, y0 + 5, px, y0 + 18, tick(x)));
        }
        svg.append(String.format(Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>"
                        + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n",
                x0, y0, x1, y0, x0, y0, x0, y1));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                (x0 + x1) / 2, y0 + 38, escape(xLabel)));
        int cy = (y0 + y1) / 2;
        svg.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">%s</text>\n",
                left + 16, cy, left + 16, cy, escape(yLabel)));
        for (Series s : panel.series()) {
            String colour = COLOURS[names.indexOf(s.name()) % COLOURS.length];
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                if (s.x()[i] <= 0 || !Double.isFinite(s.y()[i])) {
                    continue;
                }
                double px = sx.at(s.x()[i]);
                double py = sy.applyAsDouble(s.y()[i]);
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px, py, colour));
            }
            svg.append(String.format(Locale.ROOT,
                    "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n",
                    points.toString().trim(), colour));
        }
    }

    @FunctionalInterface
    private interface XScale {
        double at(double x);
    }

    /** A round step (1, 2 or 5 times a power of ten) giving about five ticks up to {@code max}. */
    static double niceStep(double max) {
        if (!(max > 0)) {
            return 1;
        }
        double raw = max / 5;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double r = raw / magnitude;
        return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * magnitude;
    }

    private static String tick(double v) {
        if (Math.abs(v) >= 10_000) {
            return String.format(Locale.ROOT, "%,.0fk", v / 1_000);
        }
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
