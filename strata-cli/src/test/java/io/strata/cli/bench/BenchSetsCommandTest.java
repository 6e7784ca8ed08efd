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

/** Argument parsing and the CSV and charts of a tiny run of {@code strata bench sets}; no timing is asserted. */
class BenchSetsCommandTest {
    /** The documented header; a change here is a change to every consumer of sets.csv. */
    private static final String HEADER = "operation,members,millis";

    private static BenchSetsCommand parse(String... args) {
        return BenchCommandRunner.parse(BenchSetsCommand.class, args);
    }

    @Test
    void defaults() {
        BenchSetsCommand c = parse("bench", "sets");
        assertThat(c.members).containsExactly(10_000, 100_000, 1_000_000);
        assertThat(c.shapes).containsExactly("dense", "sparse");
        assertThat(c.repeat).isEqualTo(5);
        assertThat(c.batch).isEqualTo(10_000);
        assertThat(c.warmup).isEqualTo(0.3);
        assertThat(c.output.out).isEqualTo(Path.of("bench-results"));
    }

    @Test
    void parsesListsAndNumbers() {
        BenchSetsCommand c = parse("bench", "sets", "--members", "100,2000", "--shapes", "sparse", "--repeat", "3",
                "--batch", "50", "--warmup", "1.5", "--out", "x/y");
        assertThat(c.members).containsExactly(100, 2000);
        assertThat(c.shapes).containsExactly("sparse");
        assertThat(c.repeat).isEqualTo(3);
        assertThat(c.batch).isEqualTo(50);
        assertThat(c.warmup).isEqualTo(1.5);
        assertThat(c.output.out).isEqualTo(Path.of("x/y"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        String out = dir.toString();
        assertThat(rejected("bench", "sets", "--members", "0", "--out", out)).contains("--members");
        assertThat(rejected("bench", "sets", "--shapes", "lumpy", "--out", out)).contains("unknown shape: lumpy");
        assertThat(rejected("bench", "sets", "--repeat", "0", "--out", out)).contains("--repeat");
        assertThat(dir.resolve("sets.csv")).doesNotExist();
    }

    @Test
    void tinyRunWritesTheCsvAndTwoWellFormedCharts(@TempDir Path dir) throws Exception {
        BenchCommandRunner.Run run = run("bench", "sets", "--members", "100,1000", "--repeat", "1", "--batch", "500",
                "--warmup", "0", "--out", dir.toString());

        assertThat(run.code()).isZero();
        List<String> rows = csvRows(dir.resolve("sets.csv"), HEADER);
        List<String> keys = rows.stream().map(l -> l.substring(0, l.lastIndexOf(','))).toList();
        assertThat(keys).containsExactly(
                "add-dense,100", "and-dense,100", "or-dense,100", "andNot-dense,100", "xor-dense,100",
                "add-dense,1000", "and-dense,1000", "or-dense,1000", "andNot-dense,1000", "xor-dense,1000",
                "add-sparse,100", "and-sparse,100", "or-sparse,100", "andNot-sparse,100", "xor-sparse,100",
                "add-sparse,1000", "and-sparse,1000", "or-sparse,1000", "andNot-sparse,1000", "xor-sparse,1000");
        for (String row : rows) {
            assertThat(Double.parseDouble(fields(row)[2])).as(row).isPositive();
        }
        assertThat(polylines(dir.resolve("sets-algebra.svg"))).isEqualTo(8); // 4 operations x 2 shapes
        assertThat(polylines(dir.resolve("sets-add.svg"))).isEqualTo(2);
        assertThat(run.out()).contains("median ms").contains("and-sparse").contains("wrote");
    }
}
