package io.strata.examples.inventory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A stock count per item, with reservations that never oversell: the kind of small service
 * written for a FoundationDB cluster. Key layout: {@code ("inventory", ITEM) → count}, a
 * little-endian 64-bit integer so that restocking is a conflict-free atomic ADD.
 */
public final class Inventory {
    private final Database db;
    private final Subspace items = new Subspace(Tuple.from("inventory"));

    public Inventory(Database db) {
        this.db = db;
    }

    /** Adds {@code count} of {@code item}; concurrent restocks never conflict. */
    public void restock(String item, long count) {
        db.run(tr -> {
            tr.mutate(MutationType.ADD, items.pack(Tuple.from(item)), encode(count));
            return null;
        });
    }

    /** Takes {@code count} of {@code item} if that many are in stock; false (and nothing taken) if not. */
    public boolean reserve(String item, long count) {
        return db.run(tr -> {
            byte[] key = items.pack(Tuple.from(item));
            byte[] value = tr.get(key).join();
            long stock = value == null ? 0 : decode(value);
            if (stock < count) {
                return false;
            }
            tr.set(key, encode(stock - count));
            return true;
        });
    }

    public long stock(String item) {
        byte[] value = db.read(tr -> tr.get(items.pack(Tuple.from(item))).join());
        return value == null ? 0 : decode(value);
    }

    private static byte[] encode(long n) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(n).array();
    }

    private static long decode(byte[] value) {
        return ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** In production: the cluster in /etc/foundationdb/fdb.cluster, through FoundationDB's native client. */
    public static void main(String[] args) {
        try (Database db = FDB.selectAPIVersion(730).open("/etc/foundationdb/fdb.cluster")) {
            Inventory inventory = new Inventory(db);
            inventory.restock("widget", 10);
            System.out.println("widgets in stock: " + inventory.stock("widget"));
        }
    }
}
