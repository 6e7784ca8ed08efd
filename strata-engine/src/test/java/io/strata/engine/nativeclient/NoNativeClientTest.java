package io.strata.engine.nativeclient;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine never loads {@code com.apple.foundationdb.FDB}, whose static initializer loads
 * FoundationDB's native client: a JVM with {@code -verbose:class} runs {@link EngineWorkload}
 * (transactions, atomic ops, versionstamps, watches, retries, the official DirectoryLayer)
 * and the class must not appear among the classes it loaded.
 */
class NoNativeClientTest {
    @Test
    void theEngineAndTheOfficialDirectoryLayerNeverLoadTheNativeClient() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-verbose:class",
                "-cp", System.getProperty("java.class.path"), EngineWorkload.class.getName())
                .redirectErrorStream(true).start();
        List<String> loaded = new ArrayList<>();
        boolean done = false;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.contains("com.apple.foundationdb.")) {
                    loaded.add(line);
                }
                done |= line.equals(EngineWorkload.DONE);
            }
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(done).as("the workload ran to the end").isTrue();
        // It did use fdb-java (so the check is not vacuous) ...
        assertThat(loaded).anyMatch(l -> l.contains("com.apple.foundationdb.directory.DirectoryLayer "));
        // ... but never the class that loads libfdb_c.
        assertThat(loaded).noneMatch(l -> l.contains("com.apple.foundationdb.FDB ") || l.contains("com.apple.foundationdb.FDB$"));
    }
}
