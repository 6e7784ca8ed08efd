package io.strata.bench.options;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared option checks: each failure is a usage error naming the option. */
class BenchArgsTest {
    @Command(name = "test")
    static final class Empty {}

    private final CommandSpec spec = new CommandLine(new Empty()).getCommandSpec();

    @Test
    void timingNeedsAPositiveMeasureAndNoNegativeWarmUp() {
        assertThatCode(() -> BenchArgs.requireTiming(spec, 0.5, 0)).doesNotThrowAnyException();
        assertThatThrownBy(() -> BenchArgs.requireTiming(spec, 0, 1)).isInstanceOf(ParameterException.class)
                .hasMessage("--seconds must be > 0 and --warmup >= 0");
        assertThatThrownBy(() -> BenchArgs.requireTiming(spec, 1, Double.NaN)).isInstanceOf(ParameterException.class);
        assertThatCode(() -> BenchArgs.requireNotNegative(spec, 0, "--jit-warmup")).doesNotThrowAnyException();
        assertThatThrownBy(() -> BenchArgs.requireNotNegative(spec, -1, "--jit-warmup"))
                .isInstanceOf(ParameterException.class).hasMessage("--jit-warmup must be >= 0");
    }

    @Test
    void countsAndNamesAreChecked() {
        assertThatThrownBy(() -> BenchArgs.requireCounts(spec, List.of(1, 2_000), 1_024, "--clients must be between 1 and 1024"))
                .hasMessage("--clients must be between 1 and 1024");
        assertThatThrownBy(() -> BenchArgs.requireCounts(spec, List.of(), 1_024, "none")).hasMessage("none");
        assertThatThrownBy(() -> BenchArgs.requireKnown(spec, List.of("memory", "cluster"), List.of("memory", "durable"), "database"))
                .hasMessage("unknown database: cluster [memory, durable]");
        assertThatThrownBy(() -> BenchArgs.requireLatencies(spec, List.of("slow"))).hasMessage("unknown latency: slow [none, cluster]");
        assertThat(BenchArgs.parseEach(spec, List.of("1", "2"), Integer::parseInt)).containsExactly(1, 2);
        assertThatThrownBy(() -> BenchArgs.parseEach(spec, List.of("x"), Integer::parseInt)).isInstanceOf(ParameterException.class);
        assertThat(BenchArgs.duration(1.2345)).isEqualTo(Duration.ofMillis(1_235));
    }
}
