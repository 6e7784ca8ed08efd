package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code strata bench fsync}: reports a rate and leaves nothing behind; no timing is asserted. */
class BenchFsyncCommandTest {
    @TempDir
    Path dir;

    @Test
    void reportsARateAndRemovesItsFile() throws Exception {
        BenchCommandRunner.Run run = BenchCommandRunner.run("bench", "fsync", "--seconds", "0.2", "--dir", dir.toString());
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("raw fsync rate").contains("appends+fsyncs/s");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void refusesANonPositiveDuration() {
        assertThat(BenchCommandRunner.rejected("bench", "fsync", "--seconds", "0", "--dir", dir.toString()))
                .contains("--seconds must be > 0");
    }
}
