package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.strata.cli.bench.BenchCommandRunner.csvRows;
import static io.strata.cli.bench.BenchCommandRunner.rejected;
import static io.strata.cli.bench.BenchCommandRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

/** Argument parsing and the CSV of {@code strata bench engine}; no timing is asserted. */
class BenchEngineCommandTest {
    /** The documented header; a change here is a change to every consumer of engine.csv. */
    private static final String HEADER =
            "workload,engine,clients,keys,value_bytes,seconds,ops,ops_per_sec,retries,errors,p50_us,p90_us,p99_us,p999_us,max_us";

    private static BenchEngineCommand parse(String... args) {
        return BenchCommandRunner.parse(BenchEngineCommand.class, args);
    }

    @Test
    void defaults() {
        BenchEngineCommand c = parse("bench", "engine");
        assertThat(c.seconds).isEqualTo(5.0);
        assertThat(c.clients).containsExactly(1, 16, 64);
        assertThat(c.workloads).containsExactly("read", "write", "mixed");
        assertThat(c.engines).containsExactly("strata", "rocksdb");
        assertThat(c.out).isEqualTo(Path.of("bench-results"));
    }

    @Test
    void parsesListsAndNumbers() {
        BenchEngineCommand c = parse("bench", "engine", "--seconds", "2", "--clients", "1,4", "--out", "x/y",
                "--workloads", "write", "--engines", "strata", "--keys", "1000");
        assertThat(c.seconds).isEqualTo(2.0);
        assertThat(c.clients).containsExactly(1, 4);
        assertThat(c.workloads).containsExactly("write");
        assertThat(c.engines).containsExactly("strata");
        assertThat(c.keys).isEqualTo(1000);
        assertThat(c.out).isEqualTo(Path.of("x/y"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode() {
        assertThat(rejected("bench", "engine", "--clients", "0")).contains("--clients");
        assertThat(rejected("bench", "engine", "--engines", "redis")).contains("unknown engine: redis");
        assertThat(rejected("bench", "engine", "--workloads", "scan")).contains("unknown workload: scan");
    }

    @Test
    void tinyRunWritesOneCsvRowPerCell(@TempDir Path dir) throws Exception {
        BenchCommandRunner.Run run = run("bench", "engine", "--seconds", "0.05", "--warmup", "0", "--clients", "1,2",
                "--keys", "200", "--out", dir.toString());

        assertThat(run.code()).isEqualTo(0);
        List<String> rows = csvRows(dir.resolve("engine.csv"), HEADER);
        assertThat(rows).hasSize(3 * 2 * 2);
        assertThat(rows)
                .anySatisfy(l -> assertThat(l).startsWith("read,strata,1,200,100,"))
                .anySatisfy(l -> assertThat(l).startsWith("mixed,rocksdb,2,200,100,"));
        assertThat(run.out()).contains("strata/rocksdb").contains("write commits/s");
    }
}
