package io.strata.examples.records;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Record Layer's features on an in-memory database, named in a cluster file. */
class InMemoryRecordLayerTest extends RecordLayerFeaturesTest {
    @TempDir
    static Path dir;
    static Path clusterFile;

    @BeforeAll
    static void writeClusterFile() throws IOException {
        // A database of this class's own: every test class of the JVM has a name of its own.
        clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "strata:memory:in-memory-record-layer-test\n");
    }

    @Override
    String clusterFile() {
        return clusterFile.toString();
    }
}
