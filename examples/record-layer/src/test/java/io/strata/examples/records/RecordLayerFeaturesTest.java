package io.strata.examples.records;

import com.apple.foundationdb.record.ExecuteProperties;
import com.apple.foundationdb.record.FunctionNames;
import com.apple.foundationdb.record.IsolationLevel;
import com.apple.foundationdb.record.RecordCursor;
import com.apple.foundationdb.record.RecordCursorResult;
import com.apple.foundationdb.record.RecordMetaData;
import com.apple.foundationdb.record.metadata.IndexAggregateFunction;
import com.apple.foundationdb.record.metadata.Key;
import com.apple.foundationdb.record.metadata.expressions.VersionKeyExpression;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabase;
import com.apple.foundationdb.record.provider.foundationdb.FDBDatabaseFactory;
import com.apple.foundationdb.record.provider.foundationdb.FDBQueriedRecord;
import com.apple.foundationdb.record.provider.foundationdb.FDBRecordStore;
import com.apple.foundationdb.record.provider.foundationdb.FDBRecordVersion;
import com.apple.foundationdb.record.provider.foundationdb.FDBStoredRecord;
import com.apple.foundationdb.record.provider.foundationdb.OnlineIndexer;
import com.apple.foundationdb.record.query.RecordQuery;
import com.apple.foundationdb.record.query.expressions.Query;
import com.apple.foundationdb.record.query.plan.plans.RecordQueryPlan;
import com.apple.foundationdb.tuple.Tuple;
import com.google.protobuf.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a Record Layer user comes for, on Strata: a store with a protobuf schema, its value,
 * compound, count, rank and version indexes, queries through the planner (checked to use the
 * index meant), an online index build, continuations across transactions and conflicts retried.
 * The subclasses run it on an in-memory database and on a durable directory, each reached the
 * Record Layer's way: {@code FDBDatabaseFactory.instance().getDatabase(clusterFile)}.
 *
 * <p>Each test has a store of its own (named after the test) in the class's database.
 */
abstract class RecordLayerFeaturesTest {
    final RecordMetaData metaData = Shop.metaData();
    FDBDatabase db;
    String store;

    /** The path of a cluster file holding the Strata connection string of this class's database. */
    abstract String clusterFile();

    @BeforeEach
    void openDatabase(TestInfo test) {
        db = FDBDatabaseFactory.instance().getDatabase(clusterFile());
        store = test.getTestMethod().orElseThrow().getName();
    }

    FDBRecordStore open(com.apple.foundationdb.record.provider.foundationdb.FDBRecordContext context) {
        return Shop.open(context, metaData, store);
    }

    void saveAll(List<ShopProto.Order> orders) {
        db.run(context -> {
            FDBRecordStore s = open(context);
            orders.forEach(s::saveRecord);
            return null;
        });
    }

    List<ShopProto.Order> query(RecordQuery query) {
        return db.run(context -> open(context).executeQuery(query).map(RecordLayerExample::order).asList().join());
    }

    RecordQueryPlan plan(RecordQuery query) {
        return db.run(context -> open(context).planQuery(query));
    }

    static List<Long> ids(List<ShopProto.Order> orders) {
        return orders.stream().map(ShopProto.Order::getOrderId).toList();
    }

    /** {@code n} orders: ids 1..n, five customers, prices spread so that none repeats. */
    static List<ShopProto.Order> orders(int n) {
        String[] customers = {"alice", "bob", "carol", "dave", "erin"};
        String[] flowers = {"rose", "tulip", "lily", "orchid"};
        List<ShopProto.Order> orders = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            orders.add(Shop.order(i, customers[i % customers.length], flowers[i % flowers.length],
                    (i * 7919L) % 10_007, i % 9 + 1));
        }
        return orders;
    }

    @Test
    void savesAndLoadsRecordsByPrimaryKey() {
        saveAll(RecordLayerExample.ORDERS);

        FDBStoredRecord<Message> loaded = db.run(context -> open(context).loadRecord(Tuple.from(4L)));
        assertThat(loaded).isNotNull();
        assertThat(ShopProto.Order.newBuilder().mergeFrom(loaded.getRecord()).build())
                .isEqualTo(RecordLayerExample.ORDERS.get(3));
        assertThat((Object) db.run(context -> open(context).loadRecord(Tuple.from(99L)))).isNull();

        boolean deleted = db.run(context -> open(context).deleteRecord(Tuple.from(4L)));
        assertThat(deleted).isTrue();
        assertThat((Object) db.run(context -> open(context).loadRecord(Tuple.from(4L)))).isNull();
    }

    @Test
    void aRangeFilterSortedByPriceIsAnsweredByTheValueIndex() {
        List<ShopProto.Order> orders = orders(200);
        saveAll(orders);
        RecordQuery query = RecordQuery.newBuilder()
                .setRecordType(Shop.ORDER)
                .setFilter(Query.and(Query.field("price").greaterThanOrEquals(2_000L), Query.field("price").lessThan(4_000L)))
                .setSort(Key.Expressions.field("price"))
                .build();

        RecordQueryPlan plan = plan(query);
        assertThat(plan.getUsedIndexes()).containsExactly(Shop.PRICE);
        assertThat(plan.toString()).isEqualTo("ISCAN(" + Shop.PRICE + " [[2000],[4000]))");

        List<ShopProto.Order> expected = orders.stream()
                .filter(o -> o.getPrice() >= 2_000 && o.getPrice() < 4_000)
                .sorted(Comparator.comparingLong(ShopProto.Order::getPrice)).toList();
        assertThat(expected).isNotEmpty();
        assertThat(query(query)).containsExactlyElementsOf(expected);
    }

    @Test
    void oneCustomersOrdersByPriceComeFromTheCompoundIndex() {
        List<ShopProto.Order> orders = orders(200);
        saveAll(orders);
        RecordQuery query = RecordQuery.newBuilder()
                .setRecordType(Shop.ORDER)
                .setFilter(Query.and(Query.field("customer").equalsValue("carol"), Query.field("price").lessThan(5_000L)))
                .setSort(Key.Expressions.field("price"), true)
                .build();

        RecordQueryPlan plan = plan(query);
        assertThat(plan.getUsedIndexes()).containsExactly(Shop.CUSTOMER_PRICE);
        // The whole filter is the index scan's range: no record is fetched only to be dropped.
        assertThat(plan.toString()).doesNotContain("Filter");

        List<ShopProto.Order> expected = orders.stream()
                .filter(o -> o.getCustomer().equals("carol") && o.getPrice() < 5_000)
                .sorted(Comparator.comparingLong(ShopProto.Order::getPrice).reversed()).toList();
        assertThat(query(query)).containsExactlyElementsOf(expected);
    }

    @Test
    void theCountIndexCountsEachCustomersOrdersAndFollowsDeletes() {
        saveAll(orders(100));

        assertThat(countOf("alice")).isEqualTo(20);
        assertThat(countOf("nobody")).isZero();
        db.run(context -> {
            FDBRecordStore s = open(context);
            s.deleteRecord(Tuple.from(5L));  // alice's (5 % 5 == 0)
            s.saveRecord(Shop.order(1_000, "alice", "rose", 10, 1));
            s.saveRecord(Shop.order(1_001, "alice", "rose", 10, 1));
            return null;
        });
        assertThat(countOf("alice")).isEqualTo(21);
    }

    long countOf(String customer) {
        IndexAggregateFunction count = new IndexAggregateFunction(FunctionNames.COUNT,
                metaData.getIndex(Shop.COUNT_BY_CUSTOMER).getRootExpression(), Shop.COUNT_BY_CUSTOMER);
        return db.run(context -> open(context).evaluateAggregateFunction(List.of(Shop.ORDER), count,
                Key.Evaluated.scalar(customer), IsolationLevel.SERIALIZABLE).join().getLong(0));
    }

    @Test
    void theRankIndexFindsTheCheapestOrdersAndAnOrdersRank() {
        List<ShopProto.Order> orders = orders(300);
        saveAll(orders);
        List<ShopProto.Order> byPrice = orders.stream().sorted(Comparator.comparingLong(ShopProto.Order::getPrice)).toList();

        RecordQuery fiveCheapest = RecordQuery.newBuilder()
                .setRecordType(Shop.ORDER)
                .setFilter(Query.rank("price").lessThan(5L))
                .build();
        // The planner turns "rank < 5" into the price of rank 5, read from the rank index, and a
        // scan of the value index below that price.
        RecordQueryPlan plan = plan(fiveCheapest);
        assertThat(plan.toString()).isEqualTo("SRANK __rank_0 = " + Shop.RANK_BY_PRICE + ".score_for_rank_else_skip(5)"
                + " | ISCAN(" + Shop.PRICE + " [[LESS_THAN $__rank_0]])");
        assertThat(query(fiveCheapest)).containsExactlyElementsOf(byPrice.subList(0, 5));

        ShopProto.Order tenth = byPrice.get(10);
        long rank = db.run(context -> {
            FDBRecordStore s = open(context);
            FDBStoredRecord<Message> record = s.loadRecord(Tuple.from(tenth.getOrderId()));
            return s.evaluateRecordFunction(Query.rank("price").getFunction(), record).join();
        });
        assertThat(rank).isEqualTo(10L);
    }

    @Test
    void theVersionIndexListsOrdersInTheOrderTheyWereLastWritten() {
        saveAll(List.of(Shop.order(1, "alice", "rose", 100, 1)));
        saveAll(List.of(Shop.order(2, "bob", "rose", 200, 1), Shop.order(3, "carol", "rose", 300, 1)));
        saveAll(List.of(Shop.order(4, "dave", "rose", 400, 1)));
        FDBRecordVersion beforeUpdate = db.run(context -> open(context).loadRecord(Tuple.from(4L)).getVersion());
        saveAll(List.of(Shop.order(2, "bob", "rose", 250, 2)));  // order 2 written again: now the newest

        RecordQuery byVersion = RecordQuery.newBuilder().setRecordType(Shop.ORDER).setSort(VersionKeyExpression.VERSION).build();
        RecordQueryPlan plan = plan(byVersion);
        assertThat(plan.getUsedIndexes()).containsExactly(Shop.VERSION);
        assertThat(ids(query(byVersion))).containsExactly(1L, 3L, 4L, 2L);

        // Two records saved in one transaction share the commit version, told apart by their order in it.
        FDBRecordVersion v3 = db.run(context -> open(context).loadRecord(Tuple.from(3L)).getVersion());
        FDBRecordVersion v1 = db.run(context -> open(context).loadRecord(Tuple.from(1L)).getVersion());
        assertThat(v3.isComplete()).isTrue();
        assertThat(v1).isLessThan(v3);

        RecordQuery changedSince = RecordQuery.newBuilder()
                .setRecordType(Shop.ORDER)
                .setFilter(Query.version().greaterThan(beforeUpdate))
                .build();
        assertThat(plan(changedSince).getUsedIndexes()).containsExactly(Shop.VERSION);
        assertThat(query(changedSince)).containsExactly(Shop.order(2, "bob", "rose", 250, 2));
    }

    @Test
    void aQueryResumesFromItsContinuationInANewTransaction() {
        List<ShopProto.Order> orders = orders(250);
        saveAll(orders);
        RecordQuery query = RecordQuery.newBuilder()
                .setRecordType(Shop.ORDER)
                .setFilter(Query.field("price").greaterThan(1_000L))
                .setSort(Key.Expressions.field("price"))
                .build();
        ExecuteProperties pageOf40 = ExecuteProperties.newBuilder().setReturnedRowLimit(40).build();

        List<ShopProto.Order> all = new ArrayList<>();
        byte[] continuation = null;
        int pages = 0;
        do {
            byte[] from = continuation;
            RecordCursorResult<FDBQueriedRecord<Message>> last = db.run(context -> {
                RecordCursor<FDBQueriedRecord<Message>> cursor = open(context).executeQuery(query, from, pageOf40);
                RecordCursorResult<FDBQueriedRecord<Message>> r;
                while ((r = cursor.getNext()).hasNext()) {
                    all.add(RecordLayerExample.order(r.get()));
                }
                return r;
            });
            continuation = last.getContinuation().toBytes();
            pages++;
            if (pages == 2) {
                // Between pages, another transaction adds a cheap order (behind the cursor) and a
                // dear one (ahead of it): the next page sees the dear one, as FoundationDB would.
                saveAll(List.of(Shop.order(5_000, "zed", "rose", 1_001, 1), Shop.order(5_001, "zed", "rose", 20_000, 1)));
            }
        } while (!isEnd(continuation));

        List<ShopProto.Order> expected = new ArrayList<>(orders.stream().filter(o -> o.getPrice() > 1_000).toList());
        expected.add(Shop.order(5_001, "zed", "rose", 20_000, 1));
        expected.sort(Comparator.comparingLong(ShopProto.Order::getPrice));
        assertThat(all).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo((expected.size() + 39) / 40 + (expected.size() % 40 == 0 ? 1 : 0));
    }

    private static boolean isEnd(byte[] continuation) {
        return continuation == null;
    }

    @Test
    void twoConcurrentUpdatesOfOneRecordConflictAndBothAreApplied() throws Exception {
        saveAll(List.of(Shop.order(1, "alice", "rose", 100, 0)));
        CountDownLatch bothRead = new CountDownLatch(2);
        AtomicInteger attempts = new AtomicInteger();

        Runnable addOne = () -> db.run(context -> {
            attempts.incrementAndGet();
            FDBRecordStore s = open(context);
            ShopProto.Order current = ShopProto.Order.newBuilder()
                    .mergeFrom(s.loadRecord(Tuple.from(1L)).getRecord()).build();
            // Both first attempts read before either commits, so one of them must conflict.
            bothRead.countDown();
            await(bothRead);
            s.saveRecord(current.toBuilder().setQuantity(current.getQuantity() + 1).build());
            return null;
        });
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<Void> a = CompletableFuture.runAsync(addOne, two);
            CompletableFuture<Void> b = CompletableFuture.runAsync(addOne, two);
            CompletableFuture.allOf(a, b).get(60, TimeUnit.SECONDS);
        } finally {
            two.shutdownNow();
        }

        assertThat(query(RecordQuery.newBuilder().setRecordType(Shop.ORDER).build()))
                .extracting(ShopProto.Order::getQuantity).containsExactly(2);
        assertThat(attempts.get()).as("the conflicting transaction was retried once").isEqualTo(3);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other transaction never read");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anIndexAddedToAFullStoreIsBuiltOnlineAndThenUsed() {
        List<ShopProto.Order> orders = orders(600);  // more than the 200 the Record Layer builds in line
        saveAll(orders);
        RecordMetaData v2 = Shop.metaDataWithFlowerIndex();
        RecordQuery tulips = RecordQuery.newBuilder()
                .setRecordType(Shop.ORDER)
                .setFilter(Query.field("flower").equalsValue("tulip"))
                .build();

        boolean readableAtOpen = db.run(context -> Shop.open(context, v2, store).isIndexReadable(Shop.FLOWER));
        assertThat(readableAtOpen).as("a new index on a store with many records starts disabled").isFalse();
        assertThat(db.run(context -> Shop.open(context, v2, store).planQuery(tulips)).getUsedIndexes()).isEmpty();

        try (OnlineIndexer indexer = OnlineIndexer.newBuilder()
                .setDatabase(db)
                .setRecordStoreBuilder(Shop.storeBuilder(v2, store))
                .setIndex(Shop.FLOWER)
                .setLimit(100)  // records per transaction: six transactions here
                .build()) {
            indexer.buildIndex();
        }

        boolean readableAfterBuild = db.run(context -> Shop.open(context, v2, store).isIndexReadable(Shop.FLOWER));
        assertThat(readableAfterBuild).isTrue();
        RecordQueryPlan plan = db.run(context -> Shop.open(context, v2, store).planQuery(tulips));
        assertThat(plan.getUsedIndexes()).containsExactly(Shop.FLOWER);
        List<ShopProto.Order> found = db.run(context -> Shop.open(context, v2, store).executeQuery(plan)
                .map(RecordLayerExample::order).asList().join());
        assertThat(ids(found)).containsExactlyElementsOf(
                LongStream.rangeClosed(1, 600).filter(i -> i % 4 == 1).boxed().toList());
    }
}
