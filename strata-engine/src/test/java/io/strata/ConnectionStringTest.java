package io.strata;

import io.strata.engine.durability.Durability;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectionStringTest {
    private static final Path BASE = Path.of("/srv/app");

    @Test
    void memoryTargetsAreNamed() {
        assertThat(ConnectionString.parse("strata:memory", BASE).memoryName()).isEqualTo("default");
        ConnectionString named = ConnectionString.parse("strata:memory:tests", BASE);
        assertThat(named.inMemory()).isTrue();
        assertThat(named.memoryName()).isEqualTo("tests");
        assertThat(named.target()).isEqualTo("memory:tests");
        assertThat(named.directory()).isNull();
    }

    @Test
    void relativeDirectoriesResolveAgainstTheBase() {
        ConnectionString cs = ConnectionString.parse("strata:data/db", BASE);
        assertThat(cs.inMemory()).isFalse();
        assertThat(cs.directory()).isEqualTo(Path.of("/srv/app/data/db"));
        assertThat(ConnectionString.parse("strata:/var/lib/x/../db", BASE).directory()).isEqualTo(Path.of("/var/lib/db"));
        assertThat(cs.durability()).isEqualTo(Durability.FSYNC);
    }

    @Test
    void commentsAndLineBreaksAreIgnoredAsInAClusterFile() {
        String file = "# the test database\n  strata:memory:it # shared by the suite\n\n";
        assertThat(ConnectionString.isStrata(file)).isTrue();
        assertThat(ConnectionString.parse(file, BASE).text()).isEqualTo("strata:memory:it");
    }

    @Test
    void optionsConfigureTheEngine() {
        ConnectionString cs = ConnectionString.parse("strata:db?durability=os_buffered&latency=cluster&faults=seed:7,not_committed:0.1", BASE);
        assertThat(cs.durability()).isEqualTo(Durability.OS_BUFFERED);
        assertThat(cs.latency()).isEqualTo(LatencyModel.cluster());
        assertThat(cs.faults().seed()).isEqualTo(7);
        assertThat(ConnectionString.parse("strata:memory?latency=10/20/30", BASE).latency()).isEqualTo(new LatencyModel(10, 20, 30));
        assertThat(cs.sameOptions(ConnectionString.parse("strata:other?durability=os_buffered&latency=cluster&faults=seed:7,not_committed:0.1", BASE))).isTrue();
        assertThat(cs.sameOptions(ConnectionString.parse("strata:db", BASE))).isFalse();
        assertThat(cs.completion()).isEqualTo(io.strata.engine.client.Completion.FDB_JAVA);
        ConnectionString fast = ConnectionString.parse("strata:db?completion=immediate", BASE);
        assertThat(fast.completion()).isEqualTo(io.strata.engine.client.Completion.IMMEDIATE);
        assertThat(fast.sameOptions(ConnectionString.parse("strata:db", BASE))).as("completion is a handle's, not the engine's").isTrue();
    }

    @Test
    void badStringsSayWhatIsWrong() {
        assertThatThrownBy(() -> ConnectionString.parse("strata:", BASE)).hasMessageContaining("names no database");
        assertThatThrownBy(() -> ConnectionString.parse("strata:memory:", BASE)).hasMessageContaining("empty in-memory database name");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?speed=fast", BASE)).hasMessageContaining("unknown option 'speed'");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?durability=never", BASE)).hasMessageContaining("fsync or os_buffered");
        assertThatThrownBy(() -> ConnectionString.parse("strata:memory?durability=fsync", BASE)).hasMessageContaining("durable databases only");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?latency=slow", BASE)).hasMessageContaining("latency must be");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?faults=not_committed:0.1", BASE)).hasMessageContaining("must start with seed");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?faults=seed:1,lost:0.1", BASE)).hasMessageContaining("unknown fault 'lost'");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?faults=seed:1,not_committed:2", BASE)).hasMessageContaining("sum to at most 1");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?latency=none&latency=none", BASE)).hasMessageContaining("given twice");
        assertThatThrownBy(() -> ConnectionString.parse("strata:db?completion=later", BASE)).hasMessageContaining("fdb_java or immediate");
        assertThatThrownBy(() -> ConnectionString.parse("docker:docker@127.0.0.1:4500", BASE)).hasMessageContaining("must start with 'strata:'");
    }

    @Test
    void foundationDbStringsAreRecognised() {
        assertThat(ConnectionString.looksLikeFoundationDb("docker:docker@127.0.0.1:4500")).isTrue();
        assertThat(ConnectionString.looksLikeFoundationDb("# comment\nabc:Xy12@10.0.0.1:4500,10.0.0.2:4500(tls)\n")).isTrue();
        assertThat(ConnectionString.looksLikeFoundationDb("strata:memory")).isFalse();
        assertThat(ConnectionString.looksLikeFoundationDb("garbage")).isFalse();
    }
}
