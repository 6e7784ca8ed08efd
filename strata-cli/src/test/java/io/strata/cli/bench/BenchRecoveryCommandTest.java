package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code strata bench recovery} on a tiny database: recovers, checks, cleans up; no timing asserted. */
class BenchRecoveryCommandTest {
    @TempDir
    Path dir;

    @Test
    void loadsRecoversChecksAndDeletesItsDatabase() throws Exception {
        BenchCommandRunner.Run run = BenchCommandRunner.run("bench", "recovery", "--megabytes", "2", "--value-bytes", "100", "--dir", dir.toString());
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("loaded").contains("recovery (Strata.open)").doesNotContain("FAILED");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
