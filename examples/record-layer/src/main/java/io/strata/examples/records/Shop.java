package io.strata.examples.records;

import com.apple.foundationdb.record.RecordMetaData;
import com.apple.foundationdb.record.RecordMetaDataBuilder;
import com.apple.foundationdb.record.metadata.Index;
import com.apple.foundationdb.record.metadata.IndexTypes;
import com.apple.foundationdb.record.metadata.expressions.GroupingKeyExpression;
import com.apple.foundationdb.record.metadata.expressions.VersionKeyExpression;
import com.apple.foundationdb.record.provider.foundationdb.FDBRecordContext;
import com.apple.foundationdb.record.provider.foundationdb.FDBRecordStore;
import com.apple.foundationdb.record.provider.foundationdb.keyspace.KeySpace;
import com.apple.foundationdb.record.provider.foundationdb.keyspace.KeySpaceDirectory;
import com.apple.foundationdb.record.provider.foundationdb.keyspace.KeySpacePath;

import static com.apple.foundationdb.record.metadata.Key.Expressions.concatenateFields;
import static com.apple.foundationdb.record.metadata.Key.Expressions.field;

/**
 * The shop's record store: its meta-data (record types from {@code shop.proto}, primary key and
 * indexes) and where it lives.
 *
 * <h2>Indexes</h2>
 * <ul>
 *   <li>{@value #PRICE}: a value index on {@code price} — range filters and sorts by price;</li>
 *   <li>{@value #CUSTOMER_PRICE}: a compound value index on {@code (customer, price)} — one
 *       customer's orders by price;</li>
 *   <li>{@value #COUNT_BY_CUSTOMER}: a {@code COUNT} aggregate grouped by customer — how many
 *       orders a customer has, from one key;</li>
 *   <li>{@value #RANK_BY_PRICE}: a {@code RANK} index on {@code price} — the n-th cheapest order
 *       and an order's rank, in logarithmic time (a skip list stored in keys);</li>
 *   <li>{@value #VERSION}: a {@code VERSION} index — orders in the order they were last
 *       written, by the commit's versionstamp ("what changed since").</li>
 * </ul>
 * Meta-data version 2 adds {@value #FLOWER}, a value index on {@code flower}: opening a store
 * that already holds many records with it leaves the new index disabled until an
 * {@code OnlineIndexer} builds it.
 *
 * <h2>Key layout</h2>
 * The store lives under the key-space path {@code ("strata-example", "shop")}: two string
 * tuple elements, no directory layer. Below it the Record Layer keeps its own subspaces
 * (store header, records, index data, index states...).
 */
public final class Shop {
    public static final String ORDER = "Order";
    public static final String PRICE = "Order$price";
    public static final String CUSTOMER_PRICE = "Order$customer-price";
    public static final String COUNT_BY_CUSTOMER = "Order$count-by-customer";
    public static final String RANK_BY_PRICE = "Order$rank-by-price";
    public static final String VERSION = "Order$version";
    /** Added in meta-data version 2. */
    public static final String FLOWER = "Order$flower";

    public static final KeySpace KEY_SPACE = new KeySpace(
            new KeySpaceDirectory("application", KeySpaceDirectory.KeyType.STRING, "strata-example")
                    .addSubdirectory(new KeySpaceDirectory("store", KeySpaceDirectory.KeyType.STRING)));

    private Shop() {}

    /** The path of the store named {@code name} (one store per name). */
    public static KeySpacePath path(String name) {
        return KEY_SPACE.path("application").add("store", name);
    }

    /** Meta-data version 1: the five indexes. */
    public static RecordMetaData metaData() {
        return builder().build();
    }

    /** Meta-data version 2: version 1 and the index on {@code flower}. */
    public static RecordMetaData metaDataWithFlowerIndex() {
        RecordMetaDataBuilder builder = builder();
        builder.addIndex(ORDER, new Index(FLOWER, field("flower")));
        return builder.build();
    }

    private static RecordMetaDataBuilder builder() {
        RecordMetaDataBuilder builder = RecordMetaData.newBuilder().setRecords(ShopProto.getDescriptor());
        builder.getRecordType(ORDER).setPrimaryKey(field("order_id"));
        builder.addIndex(ORDER, new Index(PRICE, field("price")));
        builder.addIndex(ORDER, new Index(CUSTOMER_PRICE, concatenateFields("customer", "price")));
        builder.addIndex(ORDER, new Index(COUNT_BY_CUSTOMER,
                new GroupingKeyExpression(field("customer"), 0), IndexTypes.COUNT));
        builder.addIndex(ORDER, new Index(RANK_BY_PRICE, field("price").ungrouped(), IndexTypes.RANK));
        // Version indexes need the store to keep each record's commit version beside it.
        builder.setStoreRecordVersions(true);
        builder.addIndex(ORDER, new Index(VERSION, VersionKeyExpression.VERSION, IndexTypes.VERSION));
        return builder;
    }

    /** Opens (creating on first use) the store {@code name} in the context's transaction. */
    public static FDBRecordStore open(FDBRecordContext context, RecordMetaData metaData, String name) {
        return FDBRecordStore.newBuilder()
                .setMetaDataProvider(metaData)
                .setContext(context)
                .setKeySpacePath(path(name))
                .createOrOpen();
    }

    /** A builder of the store, without a context: what {@code OnlineIndexer} wants. */
    public static FDBRecordStore.Builder storeBuilder(RecordMetaData metaData, String name) {
        return FDBRecordStore.newBuilder().setMetaDataProvider(metaData).setKeySpacePath(path(name));
    }

    /** An order. */
    public static ShopProto.Order order(long id, String customer, String flower, long price, int quantity) {
        return ShopProto.Order.newBuilder()
                .setOrderId(id).setCustomer(customer).setFlower(flower).setPrice(price).setQuantity(quantity)
                .build();
    }
}
