package io.strata.cli.bench;

import io.strata.cli.StrataCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without {@code --cluster-file}, {@code strata bench allocators} never loads
 * {@code com.apple.foundationdb.FDB} (whose static initializer loads the native client): a
 * JVM with {@code -verbose:class} runs a tiny benchmark, and the class must not be among
 * those it loaded. A separate JVM because another test in this one loads it on purpose.
 */
class BenchAllocatorsNoNativeClientTest {
    @Test
    void theEngineRunNeverLoadsTheNativeClient(@TempDir Path dir) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-verbose:class",
                "-cp", System.getProperty("java.class.path"), StrataCli.class.getName(),
                "bench", "allocators", "--concurrency", "1", "--seconds", "0.1", "--warmup", "0", "--latency", "none",
                "--allocators", "directory", "--out", dir.toString())
                .redirectErrorStream(true).start();
        List<String> loaded = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.contains("com.apple.foundationdb.")) {
                    loaded.add(line);
                }
            }
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(dir.resolve("allocators.csv")).exists();
        // It did use fdb-java's directory layer (so the check is not vacuous) ...
        assertThat(loaded).anyMatch(l -> l.contains("com.apple.foundationdb.directory.DirectoryLayer "));
        // ... but never the class that loads libfdb_c.
        assertThat(loaded).noneMatch(l -> l.contains("com.apple.foundationdb.FDB ") || l.contains("com.apple.foundationdb.FDB$"));
    }
}
