package io.strata.redis.acl;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * ACL users in the database, so that every server process on one database has the same users
 * and a restart keeps them.
 *
 * <h2>Key layout</h2> (under the server's area {@code 'u'}, see {@code Keyspace.area})
 * <pre>
 * U 'r' name  -&gt; the user's rules as ACL LIST prints them after "user &lt;name&gt; ", e.g.
 *                "on #5e88...d8 ~cache:* resetchannels -@all +get" (bytes as given, ISO-8859-1)
 * U 'v'       -&gt; the ACL version: 8 bytes little-endian, +1 (atomic ADD) by every change
 * </pre>
 * One key per user, in readable rule form: what ACL SAVE would write to an ACL file. The
 * default user has a record only once it has been changed (or set by {@code requirepass});
 * without one it is Redis's default. Servers watch the version key and reload every user when
 * it moves; the atomic ADD means concurrent changes of different users never conflict on it.
 *
 * <p>Concurrency: stateless; each method works inside the caller's transaction.
 */
final class AclStore {
    private static final byte RULES = 'r';
    private static final byte VERSION = 'v';
    private static final byte[] ONE = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(1).array();

    /** Every stored user's rules, by name in byte order, and the version they were read at. */
    record Stored(long version, Map<String, String> rules) {
    }

    private final byte[] prefix;

    AclStore(Subspace area) {
        this.prefix = area.getKey();
    }

    CompletableFuture<Stored> readAll(ReadTransaction tr) {
        CompletableFuture<Long> version = version(tr);
        byte[] begin = key(RULES, new byte[0]);
        byte[] end = key((byte) (RULES + 1), new byte[0]);
        return tr.getRange(new Range(begin, end)).asList().thenCombine(version, (kvs, v) -> {
            Map<String, String> rules = new LinkedHashMap<>();
            for (KeyValue kv : kvs) {
                rules.put(AclText.of(Arrays.copyOfRange(kv.getKey(), begin.length, kv.getKey().length)),
                        AclText.of(kv.getValue()));
            }
            return new Stored(v, rules);
        });
    }

    CompletableFuture<Long> version(ReadTransaction tr) {
        return tr.get(versionKey()).thenApply(v -> v == null ? 0L : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong());
    }

    /** A user's rules, or null when it has no record. */
    CompletableFuture<String> read(ReadTransaction tr, String name) {
        return tr.get(key(RULES, AclText.bytes(name))).thenApply(v -> v == null ? null : AclText.of(v));
    }

    void write(Transaction tr, String name, String rules) {
        tr.set(key(RULES, AclText.bytes(name)), AclText.bytes(rules));
        bump(tr);
    }

    void delete(Transaction tr, String name) {
        tr.clear(key(RULES, AclText.bytes(name)));
        bump(tr);
    }

    /** A future that completes when the version moves after {@code tr}'s read version (set on commit). */
    CompletableFuture<Void> watchVersion(Transaction tr) {
        return tr.watch(versionKey());
    }

    private void bump(Transaction tr) {
        tr.mutate(MutationType.ADD, versionKey(), ONE);
    }

    private byte[] versionKey() {
        return key(VERSION, new byte[0]);
    }

    private byte[] key(byte tag, byte[] name) {
        byte[] k = Arrays.copyOf(prefix, prefix.length + 1 + name.length);
        k[prefix.length] = tag;
        System.arraycopy(name, 0, k, prefix.length + 1, name.length);
        return k;
    }
}
