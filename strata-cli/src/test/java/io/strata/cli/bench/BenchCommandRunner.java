package io.strata.cli.bench;

import io.strata.cli.StrataCli;
import org.w3c.dom.Document;
import picocli.CommandLine;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the {@code strata bench} command tests share: parsing arguments into a command object,
 * running the command line with its output captured, and reading back what a run wrote.
 */
final class BenchCommandRunner {
    /** One execution: its exit code and everything it printed to stdout and stderr. */
    record Run(int code, String out, String err) {}

    private BenchCommandRunner() {}

    /** The subcommand object {@code strata args} parses to, with its options set. */
    static <T> T parse(Class<T> type, String... args) {
        CommandLine.ParseResult result = StrataCli.commandLine().parseArgs(args);
        return type.cast(result.subcommand().subcommand().commandSpec().userObject());
    }

    /** Runs {@code strata args} on a fresh command line, capturing both streams. */
    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** Runs {@code strata args}, which must fail as a usage error (exit code 2); returns its stderr. */
    static String rejected(String... args) {
        Run run = run(args);
        assertThat(run.code()).as(String.join(" ", args)).isEqualTo(2);
        return run.err();
    }

    /**
     * The data lines of the CSV {@code file}, after checking that its first line is
     * {@code header} and that every other line has as many fields as the header.
     */
    static List<String> csvRows(Path file, String header) throws IOException {
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(0)).isEqualTo(header);
        List<String> rows = lines.subList(1, lines.size());
        int columns = header.split(",").length;
        for (String row : rows) {
            assertThat(fields(row)).as(row).hasSize(columns);
        }
        return rows;
    }

    /** The comma-separated fields of a CSV line, empty ones included. */
    static String[] fields(String line) {
        return line.split(",", -1);
    }

    /** The polylines (one per series and panel) of the SVG chart {@code file}, after checking it is well-formed SVG. */
    static int polylines(Path file) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        assertThat(doc.getDocumentElement().getTagName()).as(file.toString()).isEqualTo("svg");
        return doc.getElementsByTagName("polyline").getLength();
    }
}
