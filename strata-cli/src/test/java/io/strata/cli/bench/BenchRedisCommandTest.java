package io.strata.cli.bench;

import org.junit.jupiter.api.Test;

import static io.strata.cli.bench.BenchCommandRunner.parse;
import static io.strata.cli.bench.BenchCommandRunner.rejected;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code strata bench redis}'s options (the run itself needs Redis's programs, which the build
 * does not install: docs/benchmarks.md section 12 records it).
 */
class BenchRedisCommandTest {
    @Test
    void keyspaceDefaultsToOneKeyPerTestAndIsPassedThrough() {
        assertThat(parse(BenchRedisCommand.class, "bench", "redis").keyspace).isZero();
        assertThat(parse(BenchRedisCommand.class, "bench", "redis", "--keyspace", "100000").keyspace).isEqualTo(100_000);
    }

    @Test
    void aNegativeKeyspaceIsAUsageError() {
        assertThat(rejected("bench", "redis", "--keyspace", "-1")).contains("--keyspace must be 0 or more (got -1)");
    }

    @Test
    void warmupRoundsDefaultToThreeAndZeroTurnsThemOff() {
        assertThat(parse(BenchRedisCommand.class, "bench", "redis").warmupRounds).isEqualTo(3);
        assertThat(parse(BenchRedisCommand.class, "bench", "redis", "--warmup-rounds", "0").warmupRounds).isZero();
        assertThat(rejected("bench", "redis", "--warmup-rounds", "-1")).contains("--warmup-rounds must be 0 or more (got -1)");
    }
}
