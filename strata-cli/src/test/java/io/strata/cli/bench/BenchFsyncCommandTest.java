package io.strata.cli.bench;

import io.strata.cli.StrataCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code strata bench fsync}: reports a rate and leaves nothing behind; no timing is asserted. */
class BenchFsyncCommandTest {
    @TempDir
    Path dir;

    @Test
    void reportsARateAndRemovesItsFile() throws Exception {
        CommandLine cli = StrataCli.commandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        int code = cli.execute("bench", "fsync", "--seconds", "0.2", "--dir", dir.toString());
        assertThat(code).isZero();
        assertThat(out.toString()).contains("raw fsync rate").contains("appends+fsyncs/s");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void refusesANonPositiveDuration() {
        CommandLine cli = StrataCli.commandLine();
        cli.setErr(new PrintWriter(new StringWriter()));
        assertThat(cli.execute("bench", "fsync", "--seconds", "0", "--dir", dir.toString())).isEqualTo(2);
    }
}
