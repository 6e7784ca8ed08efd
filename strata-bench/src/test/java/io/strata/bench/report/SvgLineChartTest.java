package io.strata.bench.report;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-written SVG: well-formed, escaped, one polyline per series, round y steps. */
class SvgLineChartTest {
    @Test
    void rendersWellFormedXmlWithALinePerSeriesAndEscapedText() throws Exception {
        SvgLineChart.Series a = new SvgLineChart.Series("naive <one counter> & co", new double[] {1, 2, 5}, new double[] {300, 310, 290});
        SvgLineChart.Series b = new SvgLineChart.Series("hca", new double[] {1, 2, 5}, new double[] {300, 600, 1400});
        String svg = SvgLineChart.render("title \"x\"", "concurrency", "allocations/s",
                List.of(new SvgLineChart.Panel("latency: none", List.of(a, b)), new SvgLineChart.Panel("latency: cluster", List.of(a))));

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(3);
        assertThat(svg).contains("naive &lt;one counter&gt; &amp; co").contains("concurrency").contains("allocations/s");
    }

    @Test
    void emptyAndSinglePointChartsStillRender() throws Exception {
        String svg = SvgLineChart.render("t", "x", "y", List.of(
                new SvgLineChart.Panel("one", List.of(new SvgLineChart.Series("s", new double[] {3}, new double[] {0}))),
                new SvgLineChart.Panel("none", List.of())));
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(svg).doesNotContain("NaN").doesNotContain("Infinity");
    }

    @Test
    void niceStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(SvgLineChart.niceStep(1400)).isEqualTo(500);
        assertThat(SvgLineChart.niceStep(9)).isEqualTo(2);
        assertThat(SvgLineChart.niceStep(0)).isEqualTo(1);
    }
}
