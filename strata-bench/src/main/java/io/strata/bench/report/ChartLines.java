package io.strata.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Turns a scenario's results into the panels and lines of a {@link SvgLineChart}: one line is
 * the results that share a name, in increasing x; one panel is the results that share a
 * panel key. Panels and lines come in the order their first result appears, so a chart lists
 * them as the run did.
 */
public final class ChartLines {
    private ChartLines() {}

    /** A line named {@code name} through {@code points}, sorted by {@code x} (ties keep their order). */
    public static <R> SvgLineChart.Series line(String name, List<R> points, ToDoubleFunction<R> x, ToDoubleFunction<R> y) {
        List<R> sorted = points.stream().sorted(Comparator.comparingDouble(x)).toList();
        return new SvgLineChart.Series(name, sorted.stream().mapToDouble(x).toArray(), sorted.stream().mapToDouble(y).toArray());
    }

    /**
     * A panel per distinct {@code panelKey} of {@code results}, titled {@code panelTitle} of
     * it, holding a line per distinct {@code lineName} among that panel's results.
     */
    public static <R, K> List<SvgLineChart.Panel> panels(List<R> results, Function<R, K> panelKey,
                                                         Function<K, String> panelTitle, Function<R, String> lineName,
                                                         ToDoubleFunction<R> x, ToDoubleFunction<R> y) {
        List<SvgLineChart.Panel> panels = new ArrayList<>();
        for (K key : results.stream().map(panelKey).distinct().toList()) {
            List<R> inPanel = results.stream().filter(r -> panelKey.apply(r).equals(key)).toList();
            List<SvgLineChart.Series> lines = new ArrayList<>();
            for (String name : inPanel.stream().map(lineName).distinct().toList()) {
                lines.add(line(name, inPanel.stream().filter(r -> lineName.apply(r).equals(name)).toList(), x, y));
            }
            panels.add(new SvgLineChart.Panel(panelTitle.apply(key), lines));
        }
        return panels;
    }
}
