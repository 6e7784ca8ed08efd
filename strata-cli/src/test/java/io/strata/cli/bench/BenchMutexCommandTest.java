package io.strata.cli.bench;

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

/** Argument parsing and the CSV and charts of a tiny run of {@code strata bench mutex}; no timing is asserted. */
class BenchMutexCommandTest {
    /** The documented header; a change here is a change to every consumer of mutex.csv. */
    private static final String HEADER = "contenders,acquisitions_per_s,handoff_p50_ms,handoff_p99_ms";

    private static BenchMutexCommand parse(String... args) {
        CommandLine.ParseResult result = StrataCli.commandLine().parseArgs(args);
        return (BenchMutexCommand) result.subcommand().subcommand().commandSpec().userObject();
    }

    @Test
    void defaults() {
        BenchMutexCommand c = parse("bench", "mutex");
        assertThat(c.contenders).containsExactly(2, 16, 64);
        assertThat(c.seconds).isEqualTo(5.0);
        assertThat(c.warmup).isEqualTo(1.0);
        assertThat(c.out).isEqualTo(Path.of("bench-results"));
    }

    @Test
    void parsesListsAndNumbers() {
        BenchMutexCommand c = parse("bench", "mutex", "--contenders", "3,8", "--seconds", "2", "--warmup", "0.5",
                "--out", "x/y");
        assertThat(c.contenders).containsExactly(3, 8);
        assertThat(c.seconds).isEqualTo(2.0);
        assertThat(c.warmup).isEqualTo(0.5);
        assertThat(c.out).isEqualTo(Path.of("x/y"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setErr(new PrintWriter(err));
        String out = dir.toString();
        assertThat(cl.execute("bench", "mutex", "--contenders", "0", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "mutex", "--seconds", "0", "--out", out)).isEqualTo(2);
        assertThat(err.toString()).contains("--contenders").contains("--seconds");
    }

    @Test
    void tinyRunWritesTheCsvAndTwoWellFormedCharts(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute("bench", "mutex", "--contenders", "2,4", "--seconds", "0.3", "--warmup", "0",
                "--out", dir.toString());

        assertThat(code).isZero();
        List<String> lines = Files.readAllLines(dir.resolve("mutex.csv"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo(HEADER);
        assertThat(lines.get(1)).startsWith("2,");
        assertThat(lines.get(2)).startsWith("4,");
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            assertThat(fields).hasSize(4);
            assertThat(Double.parseDouble(fields[1])).as("acquisitions/s").isPositive();
            assertThat(Double.parseDouble(fields[2])).as("p50").isNotNegative();
            assertThat(Double.parseDouble(fields[3])).as("p99").isGreaterThanOrEqualTo(Double.parseDouble(fields[2]));
        }
        for (String svg : List.of("mutex-throughput.svg", "mutex-handoff.svg")) {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve(svg).toFile());
            assertThat(doc.getDocumentElement().getTagName()).as(svg).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("polyline").getLength()).as(svg).isPositive();
        }
        assertThat(out.toString()).contains("acquisitions/s").contains("hand-off").contains("wrote");
    }
}
