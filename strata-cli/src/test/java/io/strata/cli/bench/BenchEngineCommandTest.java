package io.strata.cli.bench;

import io.strata.cli.StrataCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Argument parsing and the CSV of {@code strata bench engine}; no timing is asserted. */
class BenchEngineCommandTest {
    /** The documented header; a change here is a change to every consumer of engine.csv. */
    private static final String HEADER =
            "workload,engine,clients,keys,value_bytes,seconds,ops,ops_per_sec,retries,errors,p50_us,p90_us,p99_us,p999_us,max_us";

    private static BenchEngineCommand parse(String... args) {
        CommandLine.ParseResult result = StrataCli.commandLine().parseArgs(args);
        return (BenchEngineCommand) result.subcommand().subcommand().commandSpec().userObject();
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
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("bench", "engine", "--clients", "0")).isEqualTo(2);
        assertThat(cl.execute("bench", "engine", "--engines", "redis")).isEqualTo(2);
        assertThat(cl.execute("bench", "engine", "--workloads", "scan")).isEqualTo(2);
        assertThat(err.toString()).contains("--clients").contains("unknown engine: redis").contains("unknown workload: scan");
    }

    @Test
    void tinyRunWritesOneCsvRowPerCell(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute("bench", "engine", "--seconds", "0.05", "--warmup", "0", "--clients", "1,2",
                "--keys", "200", "--out", dir.toString());

        assertThat(code).isEqualTo(0);
        List<String> lines = Files.readAllLines(dir.resolve("engine.csv"));
        assertThat(lines.get(0)).isEqualTo(HEADER);
        assertThat(lines).hasSize(1 + 3 * 2 * 2);
        for (String line : lines.subList(1, lines.size())) {
            assertThat(line.split(",", -1)).hasSize(HEADER.split(",").length);
        }
        assertThat(lines.subList(1, lines.size()))
                .anySatisfy(l -> assertThat(l).startsWith("read,strata,1,200,100,"))
                .anySatisfy(l -> assertThat(l).startsWith("mixed,rocksdb,2,200,100,"));
        assertThat(out.toString()).contains("strata/rocksdb").contains("write commits/s");
    }
}
