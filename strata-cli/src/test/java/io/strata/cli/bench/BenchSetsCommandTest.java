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

/** Argument parsing and the CSV and charts of a tiny run of {@code strata bench sets}; no timing is asserted. */
class BenchSetsCommandTest {
    /** The documented header; a change here is a change to every consumer of sets.csv. */
    private static final String HEADER = "operation,members,millis";

    private static BenchSetsCommand parse(String... args) {
        CommandLine.ParseResult result = StrataCli.commandLine().parseArgs(args);
        return (BenchSetsCommand) result.subcommand().subcommand().commandSpec().userObject();
    }

    @Test
    void defaults() {
        BenchSetsCommand c = parse("bench", "sets");
        assertThat(c.members).containsExactly(10_000, 100_000, 1_000_000);
        assertThat(c.shapes).containsExactly("dense", "sparse");
        assertThat(c.repeat).isEqualTo(5);
        assertThat(c.batch).isEqualTo(10_000);
        assertThat(c.warmup).isEqualTo(0.3);
        assertThat(c.out).isEqualTo(Path.of("bench-results"));
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
        assertThat(c.out).isEqualTo(Path.of("x/y"));
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setErr(new PrintWriter(err));
        String out = dir.toString();
        assertThat(cl.execute("bench", "sets", "--members", "0", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "sets", "--shapes", "lumpy", "--out", out)).isEqualTo(2);
        assertThat(cl.execute("bench", "sets", "--repeat", "0", "--out", out)).isEqualTo(2);
        assertThat(err.toString()).contains("--members").contains("unknown shape: lumpy").contains("--repeat");
        assertThat(dir.resolve("sets.csv")).doesNotExist();
    }

    @Test
    void tinyRunWritesTheCsvAndTwoWellFormedCharts(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute("bench", "sets", "--members", "100,1000", "--repeat", "1", "--batch", "500", "--warmup", "0",
                "--out", dir.toString());

        assertThat(code).isZero();
        List<String> lines = Files.readAllLines(dir.resolve("sets.csv"));
        assertThat(lines.get(0)).isEqualTo(HEADER);
        List<String> keys = lines.subList(1, lines.size()).stream()
                .map(l -> l.substring(0, l.lastIndexOf(','))).toList();
        assertThat(keys).containsExactly(
                "add-dense,100", "and-dense,100", "or-dense,100", "andNot-dense,100", "xor-dense,100",
                "add-dense,1000", "and-dense,1000", "or-dense,1000", "andNot-dense,1000", "xor-dense,1000",
                "add-sparse,100", "and-sparse,100", "or-sparse,100", "andNot-sparse,100", "xor-sparse,100",
                "add-sparse,1000", "and-sparse,1000", "or-sparse,1000", "andNot-sparse,1000", "xor-sparse,1000");
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            assertThat(fields).hasSize(3);
            assertThat(Double.parseDouble(fields[2])).as(line).isPositive();
        }
        Document algebra = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("sets-algebra.svg").toFile());
        assertThat(algebra.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(algebra.getElementsByTagName("polyline").getLength()).isEqualTo(8); // 4 operations x 2 shapes
        Document add = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("sets-add.svg").toFile());
        assertThat(add.getElementsByTagName("polyline").getLength()).isEqualTo(2);
        assertThat(out.toString()).contains("median ms").contains("and-sparse").contains("wrote");
    }
}
