package io.strata.examples.records;

import com.apple.foundationdb.record.provider.foundationdb.FDBDatabase;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabaseFactory;
import com.apple.foundationdb.record.query.RecordQuery;
import com.apple.foundationdb.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * With no cluster file anywhere, {@code getDatabase()} — what the Record Layer's guide writes —
 * opens the JVM's default in-memory database.
 */
class DefaultDatabaseTest {
    @Test
    void withoutAClusterFileTheRecordLayerGetsTheDefaultInMemoryDatabase(@TempDir Path dir) throws Exception {
        assumeTrue(System.getenv("FDB_CLUSTER_FILE") == null && System.getenv("STRATA_DATABASE") == null
                        && System.getProperty("strata.database") == null
                        && !Files.exists(Path.of("fdb.cluster")) && !Files.exists(Path.of("/etc/foundationdb/fdb.cluster")),
                "a cluster file or Strata setting is configured on this machine");

        FDBDatabase db = FDBDatabaseFactory.instance().getDatabase();
        db.run(context -> Shop.open(context, Shop.metaData(), "default-db").saveRecord(RecordLayerExample.ORDERS.get(0)));

        // The same data through a cluster file naming the default in-memory database explicitly.
        Path file = Files.writeString(dir.resolve("fdb.cluster"), "strata:memory\n");
        FDBDatabase explicit = FDBDatabaseFactory.instance().getDatabase(file.toString());
        assertThat(explicit).isNotSameAs(db);
        List<ShopProto.Order> seen = explicit.run(context -> Shop.open(context, Shop.metaData(), "default-db")
                .executeQuery(RecordQuery.newBuilder().setRecordType(Shop.ORDER).build())
                .map(RecordLayerExample::order).asList().join());
        assertThat(seen).containsExactly(RecordLayerExample.ORDERS.get(0));
        assertThat((Object) explicit.run(context -> Shop.open(context, Shop.metaData(), "default-db").loadRecord(Tuple.from(2L))))
                .isNull();
    }
}
