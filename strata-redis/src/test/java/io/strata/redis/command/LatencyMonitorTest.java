package io.strata.redis.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The latency monitor's samples as Redis keeps them, and LATENCY GRAPH's drawing of them. */
class LatencyMonitorTest {
    @Test
    void eventsUnderTheThresholdOrWithTheMonitorOffAreNotRecorded() {
        LatencyMonitor m = new LatencyMonitor();
        m.record("command", 500, 0, 1_000);
        m.record("command", 19, 20, 1_000);
        assertThat(m.all()).isEmpty();
        m.record("command", 20, 20, 1_000);
        assertThat(m.of("command").samples()).containsExactly(new LatencyMonitor.Sample(1_000, 20));
    }

    @Test
    void samplesOfOneSecondMergeIntoTheirMaximumAndTheRingKeepsTheNewest() {
        LatencyMonitor m = new LatencyMonitor();
        m.record("command", 30, 1, 5);
        m.record("command", 90, 1, 5);
        m.record("command", 40, 1, 5);
        assertThat(m.of("command").samples()).containsExactly(new LatencyMonitor.Sample(5, 90));
        for (long second = 6; second < 6 + 200; second++) {
            m.record("command", second, 1, second);
        }
        LatencyMonitor.Series s = m.of("command");
        assertThat(s.samples()).hasSize(LatencyMonitor.SAMPLES);
        assertThat(s.samples().get(0)).isEqualTo(new LatencyMonitor.Sample(46, 46));
        assertThat(s.latest()).isEqualTo(new LatencyMonitor.Sample(205, 205));
        assertThat(s.maxMillis()).as("the maximum outlives its sample").isEqualTo(205);
        m.record("expire-cycle", 7, 1, 300);
        assertThat(m.all()).extracting(LatencyMonitor.Series::event).containsExactly("command", "expire-cycle");
        assertThat(m.reset(List.of("expire-cycle", "nosuch"))).isEqualTo(1);
        assertThat(m.reset()).isEqualTo(1);
        assertThat(m.all()).isEmpty();
    }

    @Test
    void theGraphScalesBarsBetweenTheLowestAndHighestSampleAndLabelsThemWithTheirAge() {
        LatencyMonitor m = new LatencyMonitor();
        m.record("command", 100, 1, 1_000);
        m.record("command", 200, 1, 1_010);
        m.record("command", 300, 1, 1_050);
        m.record("command", 500, 1, 1_100);
        String graph = LatencyGraph.draw(m.of("command"), 1_100);
        assertThat(graph).isEqualTo("""
                command - high 500 ms, low 100 ms (all time high 500 ms)
                --------------------------------------------------------------------------------
                   #
                  _|
                 _||
                _|||
                   \s
                1150
                mm0s
                  s\s
                """);
    }

    @Test
    void agesAreInRedisUnits() {
        assertThat(LatencyGraph.ago(59)).isEqualTo("59s");
        assertThat(LatencyGraph.ago(60)).isEqualTo("1m");
        assertThat(LatencyGraph.ago(7_200)).isEqualTo("2h");
        assertThat(LatencyGraph.ago(172_800)).isEqualTo("2d");
    }
}
