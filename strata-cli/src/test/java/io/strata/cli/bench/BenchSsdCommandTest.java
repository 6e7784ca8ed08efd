package io.strata.cli.bench;

import io.strata.bench.ssd.SsdConfig;
import io.strata.bench.ssd.SsdScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code strata bench ssd}: its options, and every phase end to end on 20 MB; no timing asserted. */
class BenchSsdCommandTest {
    @TempDir
    Path dir;

    @Test
    void defaultsAreTheSmallRunAndTheKillPointIsHalfTheData() {
        BenchSsdCommand c = BenchCommandRunner.parse(BenchSsdCommand.class, "bench", "ssd");
        c.spec = picocli.CommandLine.Model.CommandSpec.forAnnotatedObject(c);
        SsdConfig config = c.config();
        assertThat(config.dataBytes()).isEqualTo(2L << 30);
        assertThat(config.killAtBytes()).isEqualTo(1L << 30);
        assertThat(config.cacheBytes()).isEqualTo(256L << 20);
        assertThat(config.valueBytes()).isEqualTo(1000);
        assertThat(config.clients()).isEqualTo(16);
        assertThat(config.engines()).containsExactly("strata", "rocksdb");
        assertThat(config.phases()).containsExactly("load", "recovery", "window");
    }

    @Test
    void rejectsUnknownEnginesPhasesAndOversizedBatches() {
        assertThat(BenchCommandRunner.run("bench", "ssd", "--engines", "strata,leveldb").code()).isEqualTo(2);
        assertThat(BenchCommandRunner.run("bench", "ssd", "--phases", "load,compact").code()).isEqualTo(2);
        assertThat(BenchCommandRunner.run("bench", "ssd", "--batch-keys", "20000").code()).isEqualTo(2);
        assertThat(BenchCommandRunner.run("bench", "ssd", "--data-gib", "0").code()).isEqualTo(2);
    }

    @Test
    void runsEveryPhaseOnTwentyMegabytesAndDeletesItsDatabases() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        BenchCommandRunner.Run run = BenchCommandRunner.run("bench", "ssd", "--data-gib", "0.02", "--cache-mib", "8", "--loaders", "4",
                "--batch-keys", "16", "--clients", "2", "--seconds", "0.3", "--warmup", "0.1", "--verify-keys", "200",
                "--window-keys", "500", "--dir", data.toString(), "--out", dir.toString());
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        for (String phase : List.of("load", "close", "reopen", "verify", "get", "scan100", "splits", "recovery", "window-read",
                "window-write", "window-mixed")) {
            assertThat(run.out()).contains(phase + " ");
        }
        assertThat(run.out()).contains("issue 19 targets:").contains("every sampled acknowledged key present")
                .contains("2 split points at 64 MiB chunks (0 would fit); one chunk: the data is smaller than the size asked");
        // Per engine: load, close, reopen, verify, get, scan100, recovery; Strata's split points; six window cells.
        assertThat(Files.readAllLines(dir.resolve(SsdScenario.CSV_FILE))).hasSize(1 + 2 * 7 + 1 + 6);
        try (var files = Files.list(data)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void strataOpenIsStrataKeepingVersionsOnlyForOpenTransactions() throws Exception {
        Path data = Files.createDirectories(dir.resolve("open"));
        BenchCommandRunner.Run run = BenchCommandRunner.run("bench", "ssd", "--engines", "strata-open,rocksdb", "--phases", "load",
                "--data-gib", "0.01", "--cache-mib", "8", "--loaders", "2", "--batch-keys", "16", "--clients", "2", "--seconds", "0.2",
                "--warmup", "0.1", "--verify-keys", "100", "--dir", data.toString(), "--out", dir.toString());
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).containsPattern("(?m)^load +strata-open ").containsPattern("(?m)^verify +strata-open .*present")
                .contains("load strata-open/rocksdb");
    }
}
