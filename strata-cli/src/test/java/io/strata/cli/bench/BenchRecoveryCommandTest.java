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

/** {@code strata bench recovery} on a tiny database: recovers, checks, cleans up; no timing asserted. */
class BenchRecoveryCommandTest {
    @TempDir
    Path dir;

    @Test
    void loadsRecoversChecksAndDeletesItsDatabase() throws Exception {
        CommandLine cli = StrataCli.commandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        int code = cli.execute("bench", "recovery", "--megabytes", "2", "--value-bytes", "100", "--dir", dir.toString());
        assertThat(code).isZero();
        assertThat(out.toString()).contains("loaded").contains("recovery (Strata.open)").doesNotContain("FAILED");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
