package io.strata.cli.bench;

import io.strata.bench.interning.InternerRegistry;
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

/** Argument parsing and the CSV and charts of a tiny run of {@code strata bench interning}; no timing is asserted. */
class BenchInterningCommandTest {
    /** The documented header; a change here is a change to every consumer of interning.csv. */
    private static final String HEADER = "allocator,batch,concurrency,new_strings_per_s,lookups_per_s,conflicts_per_string";

    @Test
    void defaults() {
        BenchInterningCommand c = BenchCommandRunner.parse(BenchInterningCommand.class, "bench", "interning");
        assertThat(c.allocators).isEqualTo(InternerRegistry.standard().names())
                .containsExactly("sharded-32/32", "sharded-16/48", "counter", "hca", "versionstamp");
        assertThat(c.batch).containsExactly(1, 100, 1000);
        assertThat(c.concurrency).containsExactly(1, 4, 16, 64);
        assertThat(c.seconds).isEqualTo(1.5);
        assertThat(c.warmup).isEqualTo(0.5);
        assertThat(c.cache).isZero();
        assertThat(c.latency).containsExactly("none");
        assertThat(c.clientPriority).isEqualTo("normal");
        assertThat(c.jitWarmup).isEqualTo(2.0);
        assertThat(c.mvccWindow.window()).isEqualTo(io.strata.MvccWindow.FIVE_SECONDS);
        assertThat(c.output.out).isEqualTo(Path.of("bench-results"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        String out = dir.toString();
        assertThat(rejected("bench", "interning", "--batch", "0", "--out", out)).contains("--batch");
        assertThat(rejected("bench", "interning", "--allocators", "bogus", "--out", out)).contains("unknown allocator: bogus");
        assertThat(rejected("bench", "interning", "--cache", "-3", "--out", out)).contains("--cache");
        assertThat(rejected("bench", "interning", "--batch", "5000", "--out", out)).contains("not possible with versionstamp");
        assertThat(rejected("bench", "interning", "--latency", "wan", "--out", out)).contains("unknown latency: wan");
        assertThat(rejected("bench", "interning", "--mvcc-window", "ten-seconds", "--out", out))
                .contains("expected five-seconds or open-transactions, got 'ten-seconds'");
        assertThat(rejected("bench", "interning", "--client-priority", "high", "--out", out))
                .contains("unknown client priority: high");
        assertThat(rejected("bench", "interning", "--jit-warmup", "-1", "--out", out)).contains("--jit-warmup");
    }

    @Test
    void refusesALowClientPriorityTheJvmWouldIgnore(@TempDir Path dir) {
        // The test JVM runs without -XX:ThreadPriorityPolicy=1: a low priority would not be applied.
        assertThat(rejected("bench", "interning", "--client-priority", "low", "--out", dir.toString()))
                .contains("-XX:ThreadPriorityPolicy=1");
    }

    @Test
    void tinyRunWritesTheCsvAndThreeWellFormedCharts(@TempDir Path dir) throws Exception {
        BenchCommandRunner.Run run = run("bench", "interning", "--allocators", "sharded-32/32,versionstamp", "--batch", "1,10",
                "--concurrency", "2", "--seconds", "0.2", "--warmup", "0", "--jit-warmup", "0.1", "--out", dir.toString());

        assertThat(run.code()).isZero();
        List<String> rows = csvRows(dir.resolve("interning.csv"), HEADER);
        assertThat(rows).hasSize(4);
        assertThat(rows.get(0)).startsWith("sharded-32/32,1,2,");
        assertThat(rows.get(1)).startsWith("sharded-32/32,10,2,");
        assertThat(rows.get(2)).startsWith("versionstamp,1,2,");
        assertThat(rows.get(3)).startsWith("versionstamp,10,2,");
        for (String row : rows) {
            String[] f = fields(row);
            assertThat(Double.parseDouble(f[3])).as("new strings/s").isPositive();
            assertThat(Double.parseDouble(f[4])).as("lookups/s").isPositive();
            assertThat(Double.parseDouble(f[5])).as("conflicts per string").isNotNegative();
        }
        for (String svg : List.of("interning-new-strings.svg", "interning-lookups.svg", "interning-conflicts.svg")) {
            assertThat(polylines(dir.resolve(svg))).as(svg).isEqualTo(4); // 2 allocators x 2 panels
        }
        assertThat(run.out()).contains("new strings/s").contains("versionstamp").contains("wrote");
    }

    @Test
    void runsWithTheOpenTransactionsWindow(@TempDir Path dir) throws Exception {
        BenchCommandRunner.Run run = run("bench", "interning", "--allocators", "counter", "--batch", "5", "--concurrency", "2",
                "--seconds", "0.2", "--warmup", "0", "--jit-warmup", "0", "--mvcc-window", "open-transactions", "--out", dir.toString());
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("MVCC window open-transactions");
        assertThat(csvRows(dir.resolve("interning.csv"), HEADER)).hasSize(1);
    }

    @Test
    void cacheAndLatencySuffixTheAllocator(@TempDir Path dir) throws Exception {
        BenchCommandRunner.Run run = run("bench", "interning", "--allocators", "counter", "--batch", "5", "--concurrency", "1",
                "--seconds", "0.2", "--warmup", "0", "--jit-warmup", "0", "--cache", "1000", "--latency", "none,cluster", "--out", dir.toString());
        assertThat(run.code()).isZero();
        List<String> rows = csvRows(dir.resolve("interning.csv"), HEADER);
        assertThat(rows.get(0)).startsWith("counter+cache,5,1,");
        assertThat(rows.get(1)).startsWith("counter+cache@cluster,5,1,");
    }
}
