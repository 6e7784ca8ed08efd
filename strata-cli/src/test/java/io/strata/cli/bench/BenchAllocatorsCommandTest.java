package io.strata.cli.bench;

import io.strata.bench.allocation.AllocatorRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.strata.cli.bench.BenchCommandRunner.csvRows;
import static io.strata.cli.bench.BenchCommandRunner.fields;
import static io.strata.cli.bench.BenchCommandRunner.polylines;
import static io.strata.cli.bench.BenchCommandRunner.rejected;
import static io.strata.cli.bench.BenchCommandRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Argument parsing, the CSV and charts of a tiny run, and the {@code --cluster-file} failure
 * without the native client, of {@code strata bench allocators}; no timing is asserted.
 */
class BenchAllocatorsCommandTest {
    /** The documented header; a change here is a change to every consumer of allocators.csv. */
    private static final String HEADER = "allocator,latency,concurrency,allocations_per_s,avg_ms,max_ms,conflicts";

    private static BenchAllocatorsCommand parse(String... args) {
        return BenchCommandRunner.parse(BenchAllocatorsCommand.class, args);
    }

    @Test
    void defaults() {
        BenchAllocatorsCommand c = parse("bench", "allocators");
        assertThat(c.concurrency).containsExactly(1, 2, 5, 10, 20, 50);
        assertThat(c.timing.seconds).isEqualTo(5.0);
        assertThat(c.timing.warmup).isEqualTo(1.0);
        assertThat(c.latency).containsExactly("none", "cluster");
        assertThat(c.allocators).isEqualTo(AllocatorRegistry.standard().names()).contains("directory");
        assertThat(c.output.out).isEqualTo(Path.of("bench-results"));
        assertThat(c.clusterFile).isNull();
    }

    @Test
    void parsesListsAndNumbers() {
        BenchAllocatorsCommand c = parse("bench", "allocators", "--concurrency", "1,10,50", "--seconds", "2",
                "--latency", "cluster", "--out", "x/y", "--allocators", "directory", "--cluster-file", "/etc/fdb.cluster");
        assertThat(c.concurrency).containsExactly(1, 10, 50);
        assertThat(c.timing.seconds).isEqualTo(2.0);
        assertThat(c.latency).containsExactly("cluster");
        assertThat(c.allocators).containsExactly("directory");
        assertThat(c.output.out).isEqualTo(Path.of("x/y"));
        assertThat(c.clusterFile).isEqualTo(Path.of("/etc/fdb.cluster"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        String out = dir.toString();
        assertThat(rejected("bench", "allocators", "--concurrency", "0", "--out", out)).contains("--concurrency");
        assertThat(rejected("bench", "allocators", "--allocators", "bogus", "--out", out)).contains("unknown allocator: bogus");
        assertThat(rejected("bench", "allocators", "--latency", "wan", "--out", out)).contains("unknown latency: wan");
        assertThat(rejected("bench", "allocators", "--warmup", "-1", "--out", out)).contains("--warmup >= 0");
    }

    @Test
    void tinyRunWritesTheCsvAndThreeWellFormedCharts(@TempDir Path dir) throws Exception {
        BenchCommandRunner.Run run = run("bench", "allocators", "--concurrency", "1,2", "--seconds", "0.3", "--warmup", "0",
                "--latency", "none", "--allocators", "directory", "--out", dir.toString());

        assertThat(run.code()).isZero();
        List<String> rows = csvRows(dir.resolve("allocators.csv"), HEADER);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).startsWith("directory,none,1,");
        assertThat(rows.get(1)).startsWith("directory,none,2,");
        for (String row : rows) {
            String[] f = fields(row);
            assertThat(Double.parseDouble(f[3])).as("allocations/s").isPositive();
            assertThat(Long.parseLong(f[6])).as("conflicts").isNotNegative();
        }
        for (String svg : List.of("allocators-throughput.svg", "allocators-latency.svg", "allocators-conflicts.svg")) {
            assertThat(polylines(dir.resolve(svg))).as(svg).isEqualTo(1);
        }
        assertThat(run.out()).contains("allocations/s").contains("directory").contains("wrote");
    }

    @Test
    void clusterFileWithoutTheNativeClientFailsWithOneSentenceAndExitCode2(@TempDir Path dir) throws Exception {
        Path clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "test:test@127.0.0.1:4500\n");
        BenchCommandRunner.Run run = run("bench", "allocators", "--cluster-file", clusterFile.toString(), "--seconds", "0.1",
                "--out", dir.resolve("out").toString());

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err().strip())
                .isEqualTo("The FoundationDB client library (libfdb_c) must be installed to use --cluster-file.");
        assertThat(run.out()).isEmpty();
        assertThat(dir.resolve("out")).doesNotExist();
    }
}
