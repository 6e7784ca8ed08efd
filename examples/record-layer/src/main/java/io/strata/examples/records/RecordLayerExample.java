package io.strata.examples.records;

import com.apple.foundationdb.record.IsolationLevel;
import com.apple.foundationdb.record.RecordMetaData;
import com.apple.foundationdb.record.metadata.IndexAggregateFunction;
import com.apple.foundationdb.record.metadata.Key;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabase;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabaseFactory;
import com.apple.foundationdb.record.provider.foundationdb.FDBQueriedRecord;
import com.apple.foundationdb.record.provider.foundationdb.FDBRecordStore;
import com.apple.foundationdb.record.query.RecordQuery;
import com.apple.foundationdb.record.query.expressions.Query;
import com.apple.foundationdb.record.query.plan.plans.RecordQueryPlan;
import com.apple.foundationdb.record.FunctionNames;
import com.google.protobuf.Message;

import java.util.List;

/**
 * The Record Layer on Strata, start to finish, as a program: open the database the way Record
 * Layer users do, save orders, and ask the planner for them through the indexes of
 * {@link Shop}.
 *
 * <pre>
 * java -cp ... io.strata.examples.records.RecordLayerExample               # the JVM's in-memory database
 * echo 'strata:/tmp/shop-db' > shop.cluster
 * java -cp ... io.strata.examples.records.RecordLayerExample shop.cluster  # a durable directory
 * </pre>
 *
 * With no argument, {@code getDatabase(null)} follows FoundationDB's rules for finding a cluster
 * file ({@code -Dstrata.database}, {@code FDB_CLUSTER_FILE}, {@code ./fdb.cluster}, the
 * platform's default) and, when none is there, opens an in-memory database. Running it twice
 * on the same directory finds the orders of the first run (saving them again replaces them).
 */
public final class RecordLayerExample {
    /** The orders the tour saves. */
    public static final List<ShopProto.Order> ORDERS = List.of(
            Shop.order(1, "alice", "rose", 1_200, 3),
            Shop.order(2, "bob", "tulip", 450, 10),
            Shop.order(3, "alice", "lily", 900, 1),
            Shop.order(4, "carol", "rose", 2_500, 12),
            Shop.order(5, "bob", "orchid", 3_900, 1),
            Shop.order(6, "alice", "tulip", 300, 6));

    private RecordLayerExample() {}

    public static void main(String[] args) {
        String clusterFile = args.length > 0 ? args[0] : null;
        // Exactly what a Record Layer program running on a FoundationDB cluster writes.
        FDBDatabase db = FDBDatabaseFactory.instance().getDatabase(clusterFile);
        RecordMetaData metaData = Shop.metaData();

        db.run(context -> {
            FDBRecordStore store = Shop.open(context, metaData, "tour");
            ORDERS.forEach(store::saveRecord);
            return null;
        });
        System.out.println("saved " + ORDERS.size() + " orders");

        // Alice's orders under 10.00, cheapest first: the compound index answers it alone.
        RecordQuery query = RecordQuery.newBuilder()
                .setRecordType(Shop.ORDER)
                .setFilter(Query.and(Query.field("customer").equalsValue("alice"), Query.field("price").lessThan(1_000L)))
                .setSort(Key.Expressions.field("price"))
                .build();
        List<ShopProto.Order> found = db.run(context -> {
            FDBRecordStore store = Shop.open(context, metaData, "tour");
            RecordQueryPlan plan = store.planQuery(query);
            System.out.println("plan: " + plan);
            return store.executeQuery(plan).map(RecordLayerExample::order).asList().join();
        });
        found.forEach(o -> System.out.println("  order " + o.getOrderId() + ": " + o.getFlower() + " at " + o.getPrice()));

        long aliceOrders = db.run(context -> Shop.open(context, metaData, "tour")
                .evaluateAggregateFunction(List.of(Shop.ORDER),
                        new IndexAggregateFunction(FunctionNames.COUNT, metaData.getIndex(Shop.COUNT_BY_CUSTOMER).getRootExpression(),
                                Shop.COUNT_BY_CUSTOMER),
                        Key.Evaluated.scalar("alice"), IsolationLevel.SERIALIZABLE)
                .join().getLong(0));
        System.out.println("alice has " + aliceOrders + " orders (count index)");

        List<ShopProto.Order> cheapest = db.run(context -> Shop.open(context, metaData, "tour")
                .executeQuery(RecordQuery.newBuilder().setRecordType(Shop.ORDER)
                        .setFilter(Query.rank("price").lessThan(2L)).build())
                .map(RecordLayerExample::order).asList().join());
        System.out.println("the two cheapest orders (rank index): "
                + cheapest.stream().map(o -> o.getOrderId() + "").toList());
        db.close();
    }

    /** The order a query returned. */
    public static ShopProto.Order order(FDBQueriedRecord<Message> queried) {
        return ShopProto.Order.newBuilder().mergeFrom(queried.getRecord()).build();
    }
}
