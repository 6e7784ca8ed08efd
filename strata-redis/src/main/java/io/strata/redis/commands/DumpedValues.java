package io.strata.redis.commands;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.rdb.RdbValue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads a key's whole value, whatever its type, as an {@link RdbValue} for DUMP: a string's
 * bytes, a list's elements in order, a set's members (in id order), a hash's fields and
 * values (in field order), a sorted set's members and scores (in rank order), a stream's
 * entries, groups, PELs and consumers ({@code DumpedStream}).
 *
 * <p>Concurrency: every read is in the caller's transaction (serializable), so the value is
 * one consistent snapshot of the key. Limits: one transaction reads the whole value, so a
 * value is bounded by FoundationDB's 5-second transaction lifetime.
 */
final class DumpedValues {
    private DumpedValues() {
    }

    static CompletableFuture<RdbValue> read(Transaction tr, KeyStore keys, int db, KeyMeta meta) {
        switch (meta.type()) {
            case STRING:
                return StringValues.read(tr, keys, db, meta).thenApply(RdbValue.StringValue::new);
            case LIST:
                return ListValue.reading(tr, keys, db, null, meta).all().thenApply(RdbValue.ListValue::new);
            case SET:
                return CollectionTypes.elements(tr, keys, db, meta).thenApply(RdbValue.SetValue::new);
            case HASH:
                return hash(tr, keys, db, meta);
            case ZSET:
                return zset(tr, keys, db, meta);
            case STREAM:
                return io.strata.redis.streams.DumpedStream.read(tr, keys, db, meta);
            default:
                throw new IllegalStateException("no DUMP for " + meta.type());
        }
    }

    private static CompletableFuture<RdbValue> hash(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
        HashObject hash = HashObject.of(keys, db, meta);
        return hash.allInOrder(tr).thenApply(kvs -> {
            List<byte[]> fields = new ArrayList<>(kvs.size());
            List<byte[]> values = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                fields.add(hash.fieldOf(kv.getKey()));
                values.add(kv.getValue());
            }
            return new RdbValue.HashValue(fields, values);
        });
    }

    private static CompletableFuture<RdbValue> zset(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
        ZSetObject set = new ZSetObject(keys.objectOf(db, meta));
        return set.ranked().scan(tr, new byte[0], null, 0, false).asList().thenApply(elements -> {
            List<byte[]> members = new ArrayList<>(elements.size());
            List<Double> scores = new ArrayList<>(elements.size());
            for (byte[] e : elements) {
                members.add(ZSetObject.memberOf(e));
                scores.add(ZSetObject.scoreOf(e));
            }
            return new RdbValue.ZSetValue(members, scores);
        });
    }
}
