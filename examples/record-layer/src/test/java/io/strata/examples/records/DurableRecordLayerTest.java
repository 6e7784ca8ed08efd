package io.strata.examples.records;

import com.apple.foundationdb.record.FunctionNames;
import com.apple.foundationdb.record.IsolationLevel;
import com.apple.foundationdb.record.RecordMetaData;
import com.apple.foundationdb.record.metadata.IndexAggregateFunction;
import com.apple.foundationdb.record.metadata.Key;
import com.apple.foundationdb.record.metadata.expressions.VersionKeyExpression;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabase;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabaseFactory;
import com.apple.foundationdb.record.provider.foundationdb.FDBRecordStore;
import com.apple.foundationdb.record.query.RecordQuery;
import com.apple.foundationdb.record.query.expressions.Query;
import com.apple.foundationdb.record.query.plan.plans.RecordQueryPlan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Record Layer's features on a durable Strata directory, and what durability is for: the
 * records and every index survive closing the database, and another JVM reads them.
 */
class DurableRecordLayerTest extends RecordLayerFeaturesTest {
    @TempDir
    static Path dir;
    static Path clusterFile;

    @BeforeAll
    static void writeClusterFile() throws IOException {
        clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "strata:" + dir.resolve("data") + "\n");
    }

    @Override
    String clusterFile() {
        return clusterFile.toString();
    }

    @Test
    void recordsAndIndexesSurviveClosingAndReopeningTheDatabase() {
        List<ShopProto.Order> orders = orders(300);
        saveAll(orders);

        // Closing the Record Layer's database closes its handle; the last handle of a durable
        // directory closes the engine (releasing its lock), and the next use recovers it from disk.
        db.close();
        FDBDatabase reopened = FDBDatabaseFactory.instance().getDatabase(clusterFile());
        assertThat(reopened).isSameAs(db);

        assertEverythingReadable(reopened, metaData, store, orders);
    }

    @Test
    void anotherJvmReadsWhatTheExampleProgramWrote(@TempDir Path elsewhere) throws Exception {
        Path file = Files.writeString(elsewhere.resolve("shop.cluster"), "strata:shop-db\n");  // relative to the file
        Process example = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                RecordLayerExample.class.getName(), file.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(example.getInputStream().readAllBytes());
        assertThat(example.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(example.exitValue()).as(output).isZero();
        assertThat(output).contains("saved 6 orders", "alice has 3 orders", "plan: ISCAN(" + Shop.CUSTOMER_PRICE);
        assertThat(elsewhere.resolve("shop-db")).isDirectory();

        // This JVM opens the directory the child wrote, through a cluster file of its own.
        Path mine = Files.writeString(elsewhere.resolve("mine.cluster"), "strata:" + elsewhere.resolve("shop-db") + "\n");
        FDBDatabase theirs = FDBDatabaseFactory.instance().getDatabase(mine.toString());
        try {
            assertEverythingReadable(theirs, metaData, "tour", RecordLayerExample.ORDERS);
        } finally {
            theirs.close();
        }
    }

    /** Every order is there, and each index answers from what was recovered. */
    static void assertEverythingReadable(FDBDatabase db, RecordMetaData metaData, String name, List<ShopProto.Order> orders) {
        List<ShopProto.Order> byPrice = orders.stream().sorted(Comparator.comparingLong(ShopProto.Order::getPrice)).toList();
        db.run(context -> {
            FDBRecordStore s = Shop.open(context, metaData, name);

            RecordQuery all = RecordQuery.newBuilder().setRecordType(Shop.ORDER).setSort(Key.Expressions.field("price")).build();
            RecordQueryPlan plan = s.planQuery(all);
            assertThat(plan.getUsedIndexes()).containsExactly(Shop.PRICE);
            assertThat(s.executeQuery(plan).map(RecordLayerExample::order).asList().join()).containsExactlyElementsOf(byPrice);

            String customer = orders.get(0).getCustomer();
            RecordQuery mine = RecordQuery.newBuilder().setRecordType(Shop.ORDER)
                    .setFilter(Query.field("customer").equalsValue(customer)).setSort(Key.Expressions.field("price")).build();
            assertThat(s.planQuery(mine).getUsedIndexes()).containsExactly(Shop.CUSTOMER_PRICE);
            List<ShopProto.Order> customers = byPrice.stream().filter(o -> o.getCustomer().equals(customer)).toList();
            assertThat(s.executeQuery(mine).map(RecordLayerExample::order).asList().join()).containsExactlyElementsOf(customers);

            IndexAggregateFunction count = new IndexAggregateFunction(FunctionNames.COUNT,
                    metaData.getIndex(Shop.COUNT_BY_CUSTOMER).getRootExpression(), Shop.COUNT_BY_CUSTOMER);
            assertThat(s.evaluateAggregateFunction(List.of(Shop.ORDER), count, Key.Evaluated.scalar(customer),
                    IsolationLevel.SERIALIZABLE).join().getLong(0)).isEqualTo(customers.size());

            RecordQuery cheapest = RecordQuery.newBuilder().setRecordType(Shop.ORDER)
                    .setFilter(Query.rank("price").lessThan(3L)).build();
            assertThat(s.planQuery(cheapest).toString()).contains(Shop.RANK_BY_PRICE + ".score_for_rank");
            assertThat(s.executeQuery(cheapest).map(RecordLayerExample::order).asList().join())
                    .containsExactlyElementsOf(byPrice.subList(0, 3));

            RecordQuery byVersion = RecordQuery.newBuilder().setRecordType(Shop.ORDER).setSort(VersionKeyExpression.VERSION).build();
            assertThat(s.planQuery(byVersion).getUsedIndexes()).containsExactly(Shop.VERSION);
            // All were saved in one transaction, so in the order of the saves within it.
            assertThat(s.executeQuery(byVersion).map(RecordLayerExample::order).asList().join()).containsExactlyElementsOf(orders);
            return null;
        });
    }
}
