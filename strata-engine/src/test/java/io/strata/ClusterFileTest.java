package io.strata;

import com.apple.foundationdb.FDBException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterFileTest {
    @TempDir
    Path dir;
    private final Map<String, String> properties = new HashMap<>();
    private final Map<String, String> environment = new HashMap<>();

    /** A platform without a default cluster file, so the machine's own never leaks in. */
    private ClusterFile rules() {
        return new ClusterFile(properties::get, environment::get, dir, "plan9");
    }

    @Test
    void nothingConfiguredFindsNothing() {
        assertThat(rules().locate(null)).isEmpty();
    }

    @Test
    void theSettingOverridesEveryClusterFile() throws IOException {
        Path file = Files.writeString(dir.resolve("prod.cluster"), "prod:abc@10.0.0.1:4500\n");
        environment.put(ClusterFile.DATABASE_ENV, "strata:memory:env");
        assertThat(rules().locate(file.toString()).orElseThrow().contents()).isEqualTo("strata:memory:env");
        properties.put(ClusterFile.DATABASE_PROPERTY, "strata:memory:prop");
        ClusterFile.Found found = rules().locate(file.toString()).orElseThrow();
        assertThat(found.contents()).isEqualTo("strata:memory:prop");
        assertThat(found.file()).isNull();
        assertThat(found.source()).contains("strata.database");
    }

    @Test
    void anExplicitFileComesBeforeTheEnvironmentAndTheWorkingDirectory() throws IOException {
        Files.writeString(dir.resolve("fdb.cluster"), "strata:memory:local");
        Path env = Files.writeString(dir.resolve("env.cluster"), "strata:memory:env");
        Path explicit = Files.writeString(dir.resolve("mine.cluster"), "strata:memory:mine");
        environment.put(ClusterFile.CLUSTER_FILE_ENV, env.toString());
        assertThat(rules().locate(explicit.toString()).orElseThrow().contents()).isEqualTo("strata:memory:mine");
        assertThat(rules().locate(null).orElseThrow().contents()).isEqualTo("strata:memory:env");
        environment.clear();
        ClusterFile.Found local = rules().locate(null).orElseThrow();
        assertThat(local.contents()).isEqualTo("strata:memory:local");
        assertThat(local.file()).isEqualTo(dir.resolve("fdb.cluster").toAbsolutePath());
        assertThat(local.baseDirectory()).isEqualTo(dir.toAbsolutePath());
    }

    @Test
    void aNamedFileThatIsMissingIsFoundationDbsError1515() {
        assertThatThrownBy(() -> rules().locate("nope.cluster"))
                .isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(1515))
                .hasMessageContaining("nope.cluster");
        environment.put(ClusterFile.CLUSTER_FILE_ENV, dir.resolve("gone.cluster").toString());
        assertThatThrownBy(() -> rules().locate(null))
                .isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(1515))
                .hasMessageContaining("FDB_CLUSTER_FILE");
    }

    @Test
    void platformDefaultsAreFoundationDbs() {
        assertThat(new ClusterFile(properties::get, environment::get, dir, "Linux").platformDefault())
                .isEqualTo(Path.of("/etc/foundationdb/fdb.cluster"));
        assertThat(new ClusterFile(properties::get, environment::get, dir, "Mac OS X").platformDefault())
                .isEqualTo(Path.of("/usr/local/etc/foundationdb/fdb.cluster"));
    }
}
