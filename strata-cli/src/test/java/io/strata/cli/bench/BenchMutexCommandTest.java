package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.strata.cli.bench.BenchCommandRunner.csvRows;
import static io.strata.cli.bench.BenchCommandRunner.fields;
import static io.strata.cli.bench.BenchCommandRunner.polylines;
import static io.strata.cli.bench.BenchCommandRunner.rejected;
import static io.strata.cli.bench.BenchCommandRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

/** Argument parsing and the CSV and charts of a tiny run of {@code strata bench mutex}; no timing is asserted. */
class BenchMutexCommandTest {
    /** The documented header; a change here is a change to every consumer of mutex.csv. */
    private static final String HEADER = "contenders,acquisitions_per_s,handoff_p50_ms,handoff_p99_ms";

    private static BenchMutexCommand parse(String... args) {
        return BenchCommandRunner.parse(BenchMutexCommand.class, args);
    }

    @Test
    void defaults() {
        BenchMutexCommand c = parse("bench", "mutex");
        assertThat(c.contenders).containsExactly(2, 16, 64);
        assertThat(c.timing.seconds).isEqualTo(5.0);
        assertThat(c.timing.warmup).isEqualTo(1.0);
        assertThat(c.output.out).isEqualTo(Path.of("bench-results"));
    }

    @Test
    void parsesListsAndNumbers() {
        BenchMutexCommand c = parse("bench", "mutex", "--contenders", "3,8", "--seconds", "2", "--warmup", "0.5",
                "--out", "x/y");
        assertThat(c.contenders).containsExactly(3, 8);
        assertThat(c.timing.seconds).isEqualTo(2.0);
        assertThat(c.timing.warmup).isEqualTo(0.5);
        assertThat(c.output.out).isEqualTo(Path.of("x/y"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        String out = dir.toString();
        assertThat(rejected("bench", "mutex", "--contenders", "0", "--out", out)).contains("--contenders");
        assertThat(rejected("bench", "mutex", "--seconds", "0", "--out", out)).contains("--seconds");
    }

    @Test
    void tinyRunWritesTheCsvAndTwoWellFormedCharts(@TempDir Path dir) throws Exception {
        // A second per cell: long enough to see acquisitions on a loaded machine.
        BenchCommandRunner.Run run = run("bench", "mutex", "--contenders", "2,4", "--seconds", "1", "--warmup", "0.2",
                "--out", dir.toString());

        assertThat(run.code()).isZero();
        List<String> rows = csvRows(dir.resolve("mutex.csv"), HEADER);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).startsWith("2,");
        assertThat(rows.get(1)).startsWith("4,");
        for (String row : rows) {
            String[] f = fields(row);
            assertThat(Double.parseDouble(f[1])).as("acquisitions/s").isPositive();
            assertThat(Double.parseDouble(f[2])).as("p50").isNotNegative();
            assertThat(Double.parseDouble(f[3])).as("p99").isGreaterThanOrEqualTo(Double.parseDouble(f[2]));
        }
        for (String svg : List.of("mutex-throughput.svg", "mutex-handoff.svg")) {
            assertThat(polylines(dir.resolve(svg))).as(svg).isPositive();
        }
        assertThat(run.out()).contains("acquisitions/s").contains("hand-off").contains("wrote");
    }
}
