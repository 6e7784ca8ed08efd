package io.strata.cli.bench;

import io.strata.bench.interning.InternerRegistry;
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

/** Argument parsing and the CSV and charts of a tiny run of {@code strata bench interning}; no timing is asserted. */
class BenchInterningCommandTest {
    /** The documented header; a change here is a change to every consumer of interning.csv. */
    private static final String HEADER = "allocator,batch,concurrency,new_strings_per_s,lookups_per_s,conflicts_per_string";

    private static BenchInterningCommand parse(String... args) {
        CommandLine.ParseResult result = StrataCli.commandLine().parseArgs(args);
        return (BenchInterningCommand) result.subcommand().subcommand().commandSpec().userObject();
    }

    @Test
    void defaults() {
        BenchInterningCommand c = parse("bench", "interning");
        assertThat(c.allocators).isEqualTo(InternerRegistry.standard().names())
                .containsExactly("sharded-32/32", "sharded-16/48", "counter", "hca", "versionstamp");
        assertThat(c.batch).containsExactly(1, 100, 1000);
        assertThat(c.concurrency).containsExactly(1, 4, 16, 64);
        assertThat(c.seconds).isEqualTo(1.5);
        assertThat(c.warmup).isEqualTo(0.5);
        assertThat(c.cache).isZero();
        assertThat(c.latency).containsExactly("none");
        assertThat(c.out).isEqualTo(Path.of("bench-results"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setErr(new PrintWriter(err));
        String out = dir.toString();
        assertThat(cl.execute("bench", "interning", "--batch", "0", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "interning", "--allocators", "bogus", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "interning", "--cache", "-3", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "interning", "--batch", "5000", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "interning", "--latency", "wan", "--out", out)).isEqualTo(2);
        assertThat(err.toString()).contains("--batch").contains("unknown allocator: bogus").contains("--cache")
                .contains("not possible with versionstamp").contains("unknown latency: wan");
    }

    @Test
    void tinyRunWritesTheCsvAndThreeWellFormedCharts(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute("bench", "interning", "--allocators", "sharded-32/32,versionstamp", "--batch", "1,10",
                "--concurrency", "2", "--seconds", "0.2", "--warmup", "0", "--out", dir.toString());

        assertThat(code).isZero();
        List<String> lines = Files.readAllLines(dir.resolve("interning.csv"));
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).isEqualTo(HEADER);
        assertThat(lines.get(1)).startsWith("sharded-32/32,1,2,");
        assertThat(lines.get(2)).startsWith("sharded-32/32,10,2,");
        assertThat(lines.get(3)).startsWith("versionstamp,1,2,");
        assertThat(lines.get(4)).startsWith("versionstamp,10,2,");
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            assertThat(fields).hasSize(6);
            assertThat(Double.parseDouble(fields[3])).as("new strings/s").isPositive();
            assertThat(Double.parseDouble(fields[4])).as("lookups/s").isPositive();
            assertThat(Double.parseDouble(fields[5])).as("conflicts per string").isNotNegative();
        }
        for (String svg : List.of("interning-new-strings.svg", "interning-lookups.svg", "interning-conflicts.svg")) {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve(svg).toFile());
            assertThat(doc.getDocumentElement().getTagName()).as(svg).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("polyline").getLength()).as(svg).isEqualTo(4); // 2 allocators x 2 panels
        }
        assertThat(out.toString()).contains("new strings/s").contains("versionstamp").contains("wrote");
    }

    @Test
    void cacheAndLatencySuffixTheAllocator(@TempDir Path dir) throws Exception {
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        int code = cl.execute("bench", "interning", "--allocators", "counter", "--batch", "5", "--concurrency", "1",
                "--seconds", "0.2", "--warmup", "0", "--cache", "1000", "--latency", "none,cluster", "--out", dir.toString());
        assertThat(code).isZero();
        List<String> lines = Files.readAllLines(dir.resolve("interning.csv"));
        assertThat(lines.get(1)).startsWith("counter+cache,5,1,");
        assertThat(lines.get(2)).startsWith("counter+cache@cluster,5,1,");
    }
}
