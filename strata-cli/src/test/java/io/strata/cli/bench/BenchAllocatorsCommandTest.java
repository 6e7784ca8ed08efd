package io.strata.cli.bench;

import io.strata.bench.allocation.AllocatorRegistry;
import io.strata.cli.StrataCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import picocli.CommandLine;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Argument parsing, the CSV and charts of a tiny run, and the {@code --cluster-file} failure
 * without the native client, of {@code strata bench allocators}; no timing is asserted.
 */
class BenchAllocatorsCommandTest {
    /** The documented header; a change here is a change to every consumer of allocators.csv. */
    private static final String HEADER = "allocator,latency,concurrency,allocations_per_s,avg_ms,max_ms,conflicts";

    private static BenchAllocatorsCommand parse(String... args) {
        CommandLine.ParseResult result = StrataCli.commandLine().parseArgs(args);
        return (BenchAllocatorsCommand) result.subcommand().subcommand().commandSpec().userObject();
    }

    @Test
    void defaults() {
        BenchAllocatorsCommand c = parse("bench", "allocators");
        assertThat(c.concurrency).containsExactly(1, 2, 5, 10, 20, 50);
        assertThat(c.seconds).isEqualTo(5.0);
        assertThat(c.latency).containsExactly("none", "cluster");
        assertThat(c.allocators).isEqualTo(AllocatorRegistry.standard().names()).contains("directory");
        assertThat(c.out).isEqualTo(Path.of("bench-results"));
        assertThat(c.clusterFile).isNull();
    }

    @Test
    void parsesListsAndNumbers() {
        BenchAllocatorsCommand c = parse("bench", "allocators", "--concurrency", "1,10,50", "--seconds", "2",
                "--latency", "cluster", "--out", "x/y", "--allocators", "directory", "--cluster-file", "/etc/fdb.cluster");
        assertThat(c.concurrency).containsExactly(1, 10, 50);
        assertThat(c.seconds).isEqualTo(2.0);
        assertThat(c.latency).containsExactly("cluster");
        assertThat(c.allocators).containsExactly("directory");
        assertThat(c.out).isEqualTo(Path.of("x/y"));
        assertThat(c.clusterFile).isEqualTo(Path.of("/etc/fdb.cluster"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setErr(new PrintWriter(err));
        String out = dir.toString();
        assertThat(cl.execute("bench", "allocators", "--concurrency", "0", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "allocators", "--allocators", "bogus", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "allocators", "--latency", "wan", "--out", out)).isEqualTo(2);
        assertThat(err.toString()).contains("--concurrency").contains("unknown allocator: bogus").contains("unknown latency: wan");
    }

    @Test
    void tinyRunWritesTheCsvAndThreeWellFormedCharts(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute("bench", "allocators", "--concurrency", "1,2", "--seconds", "0.3", "--warmup", "0",
                "--latency", "none", "--allocators", "directory", "--out", dir.toString());

        assertThat(code).isZero();
        List<String> lines = Files.readAllLines(dir.resolve("allocators.csv"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo(HEADER);
        assertThat(lines.get(1)).startsWith("directory,none,1,");
        assertThat(lines.get(2)).startsWith("directory,none,2,");
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            assertThat(fields).hasSize(7);
            assertThat(Double.parseDouble(fields[3])).as("allocations/s").isPositive();
            assertThat(Long.parseLong(fields[6])).as("conflicts").isNotNegative();
        }
        for (String svg : List.of("allocators-throughput.svg", "allocators-latency.svg", "allocators-conflicts.svg")) {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve(svg).toFile());
            assertThat(doc.getDocumentElement().getTagName()).as(svg).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("polyline").getLength()).as(svg).isEqualTo(1);
        }
        assertThat(out.toString()).contains("allocations/s").contains("directory").contains("wrote");
    }

    @Test
    void clusterFileWithoutTheNativeClientFailsWithOneSentenceAndExitCode2(@TempDir Path dir) throws Exception {
        Path clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "test:test@127.0.0.1:4500\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("bench", "allocators", "--cluster-file", clusterFile.toString(), "--seconds", "0.1",
                "--out", dir.resolve("out").toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString().strip())
                .isEqualTo("The FoundationDB client library (libfdb_c) must be installed to use --cluster-file.");
        assertThat(out.toString()).isEmpty();
        assertThat(dir.resolve("out")).doesNotExist();
    }
}
