package io.strata.examples.records;

import com.apple.foundationdb.record.FunctionNames;
import com.apple.foundationdb.record.IsolationLevel;
import com.apple.foundationdb.record.RecordMetaData;
import com.apple.foundationdb.record.metadata.IndexAggregateFunction;
import com.apple.foundationdb.record.metadata.Key;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabase;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabaseFactory;
import com.apple.foundationdb.record.provider.foundationdb.FDBRecordStore;
import com.apple.foundationdb.record.query.RecordQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Record Layer's retry loop under the engine's injected faults: commits that fail with
 * {@code not_committed} (1020) and {@code commit_unknown_result} (1021) — some of the latter
 * having committed. Saving a record is idempotent (a retry finds the record it saved and
 * updates its indexes as for a change), so every order must be there exactly once and the
 * count index must agree.
 */
class InjectedFaultsRecordLayerTest {
    static final long SEED = 20261125L;

    @Test
    void everySaveLandsOnceAndTheCountIndexAgrees(@TempDir Path dir) throws Exception {
        Path clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "strata:memory:injected-faults?faults=seed:" + SEED
                + ",not_committed:0.1,unknown_result_committed:0.05,unknown_result_not_committed:0.05\n");
        FDBDatabase db = FDBDatabaseFactory.instance().getDatabase(clusterFile.toString());
        RecordMetaData metaData = Shop.metaData();
        AtomicInteger attempts = new AtomicInteger();
        List<ShopProto.Order> orders = RecordLayerFeaturesTest.orders(150);
        for (ShopProto.Order order : orders) {
            db.run(context -> {
                attempts.incrementAndGet();
                Shop.open(context, metaData, "faults").saveRecord(order);
                return null;
            });
        }

        assertThat(attempts.get()).as("faults were injected (seed " + SEED + ")").isGreaterThan(orders.size());
        List<ShopProto.Order> stored = db.run(context -> Shop.open(context, metaData, "faults")
                .executeQuery(RecordQuery.newBuilder().setRecordType(Shop.ORDER).build())
                .map(RecordLayerExample::order).asList().join());
        assertThat(stored).containsExactlyElementsOf(orders);
        IndexAggregateFunction count = new IndexAggregateFunction(FunctionNames.COUNT,
                metaData.getIndex(Shop.COUNT_BY_CUSTOMER).getRootExpression(), Shop.COUNT_BY_CUSTOMER);
        for (String customer : List.of("alice", "bob", "carol", "dave", "erin")) {
            long counted = db.run(context -> {
                FDBRecordStore s = Shop.open(context, metaData, "faults");
                return s.evaluateAggregateFunction(List.of(Shop.ORDER), count, Key.Evaluated.scalar(customer),
                        IsolationLevel.SERIALIZABLE).join().getLong(0);
            });
            assertThat(counted).as(customer).isEqualTo(orders.stream().filter(o -> o.getCustomer().equals(customer)).count());
        }
    }
}
