package io.strata.bench.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Results grouped into panels and lines in the order the run produced them, each line sorted by x. */
class ChartLinesTest {
    private record Point(String panel, String line, int x, double y) {}

    @Test
    void groupsByPanelThenLineInFirstSeenOrderAndSortsEachLineByX() {
        List<Point> results = List.of(
                new Point("b", "hca", 5, 50), new Point("b", "hca", 1, 10), new Point("b", "naive", 1, 1),
                new Point("a", "naive", 2, 2));
        List<SvgLineChart.Panel> panels = ChartLines.panels(results, Point::panel, p -> "panel " + p, Point::line,
                Point::x, Point::y);

        assertThat(panels).extracting(SvgLineChart.Panel::title).containsExactly("panel b", "panel a");
        assertThat(panels.get(0).series()).extracting(SvgLineChart.Series::name).containsExactly("hca", "naive");
        SvgLineChart.Series hca = panels.get(0).series().get(0);
        assertThat(hca.x()).containsExactly(1, 5);
        assertThat(hca.y()).containsExactly(10, 50);
        assertThat(panels.get(1).series()).singleElement()
                .satisfies(s -> assertThat(s.x()).containsExactly(2));
    }
}
