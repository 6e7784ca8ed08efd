package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.strata.cli.bench.BenchCommandRunner.rejected;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code strata bench memory}'s options. A run waits 6 s per engine for the MVCC window, so the
 * scenario itself is run, with a shorter wait, by strata-bench's {@code MemoryScenarioTest}.
 */
class BenchMemoryCommandTest {
    @Test
    void defaultsAreIssueEighteensShape() {
        BenchMemoryCommand c = BenchCommandRunner.parse(BenchMemoryCommand.class, "bench", "memory");
        assertThat(c.pairs).isEqualTo(1_000_000);
        assertThat(c.keyBytes).isEqualTo(16);
        assertThat(c.valueBytes).isEqualTo(100);
        assertThat(c.batch).isEqualTo(1_000);
        assertThat(c.out).isEqualTo(Path.of("bench-results"));
        c.spec = picocli.CommandLine.Model.CommandSpec.forAnnotatedObject(c);
        assertThat(c.scenario().isTargetShape()).isTrue();
    }

    @Test
    void rejectsBadArgumentsWithUsageExitCode(@TempDir Path dir) {
        String out = dir.toString();
        assertThat(rejected("bench", "memory", "--pairs", "0", "--out", out)).contains("--pairs");
        assertThat(rejected("bench", "memory", "--key-bytes", "1", "--pairs", "129", "--out", out)).contains("distinct keys");
        assertThat(rejected("bench", "memory", "--key-bytes", "0", "--out", out)).contains("--key-bytes");
        assertThat(rejected("bench", "memory", "--value-bytes", "100001", "--out", out)).contains("--value-bytes");
        assertThat(rejected("bench", "memory", "--batch", "0", "--out", out)).contains("--batch");
        assertThat(rejected("bench", "memory", "--value-bytes", "100000", "--batch", "100", "--out", out)).contains("10 MB");
    }
}
