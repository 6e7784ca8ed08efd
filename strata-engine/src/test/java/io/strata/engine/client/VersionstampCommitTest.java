package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.strata.Strata;
import io.strata.engine.util.ByteKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.deferredErrorOf;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SET_VERSIONSTAMPED_KEY / SET_VERSIONSTAMPED_VALUE through commit: where the stamp lands,
 * what getVersionstamp() reports, and the rules around them. Keys are built by hand, never
 * with {@code Tuple.packWithVersionstamp} (which loads the native client).
 */
class VersionstampCommitTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    /** {@code prefix + 10 placeholder bytes + suffix}, then the 4-byte little-endian offset of the placeholder. */
    private static byte[] stamped(byte[] prefix, byte[] suffix) {
        return ByteBuffer.allocate(prefix.length + 10 + suffix.length + 4).order(ByteOrder.LITTLE_ENDIAN)
                .put(prefix).put(new byte[10]).put(suffix).putInt(prefix.length).array();
    }

    private static long versionOf(byte[] stamp) {
        return ByteBuffer.wrap(stamp, 0, 8).getLong();
    }

    private static int batchOrderOf(byte[] stamp) {
        return ByteBuffer.wrap(stamp, 8, 2).getShort() & 0xffff;
    }

    @Test
    void versionstampedKeyLandsWithTheCommitVersionAndBatchOrder() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped(b("log/"), b("/x")), b("entry"));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        await(tr.commit());
        byte[] stamp = await(vs);
        assertThat(stamp).hasSize(10);
        assertThat(versionOf(stamp)).isEqualTo(tr.getCommittedVersion());
        assertThat(batchOrderOf(stamp)).isLessThan(MAX_BATCH);

        List<KeyValue> rows = db.read(t -> t.getRange(Range.startsWith(b("log/"))).asList().join());
        assertThat(rows).hasSize(1);
        byte[] expectedKey = ByteKeys.concat(ByteKeys.concat(b("log/"), stamp), b("/x"));
        byte[] key = rows.get(0).getKey();
        assertThat(key).isEqualTo(expectedKey);
        byte[] value = rows.get(0).getValue();
        assertThat(value).isEqualTo(b("entry"));
    }

    private static final int MAX_BATCH = 65536;

    @Test
    void versionstampedValueLandsWithTheStamp() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("k"), stamped(b("v:"), b(":end")));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        await(tr.commit());
        byte[] stamp = await(vs);
        byte[] value = Fdb.valueOf(db, "k");
        assertThat(value).isEqualTo(ByteKeys.concat(ByteKeys.concat(b("v:"), stamp), b(":end")));
    }

    @Test
    void getVersionstampCompletesOnlyAfterCommit() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        assertThat(vs).isNotDone();
        await(tr.commit());
        byte[] stamp = await(vs);
        assertThat(versionOf(stamp)).isEqualTo(tr.getCommittedVersion());
    }

    @Test
    void twoVersionstampOperationsInOneTransactionShareTheStamp() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped(b("a/"), new byte[0]), b("1"));
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("b"), stamped(new byte[0], new byte[0]));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        await(tr.commit());
        byte[] stamp = await(vs);
        byte[] valueOfB = Fdb.valueOf(db, "b");
        assertThat(valueOfB).isEqualTo(stamp);
        byte[] keyInA = db.read(t -> t.getRange(Range.startsWith(b("a/"))).asList().join()).get(0).getKey();
        assertThat(keyInA).isEqualTo(ByteKeys.concat(b("a/"), stamp));
    }

    @Test
    void versionstampsAreUniqueAcrossManyConcurrentCommits() {
        int n = 300;
        List<Transaction> txs = new ArrayList<>();
        List<CompletableFuture<byte[]>> stamps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Transaction tr = db.createTransaction();
            tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped(b("q/"), new byte[0]), b(Integer.toString(i)));
            stamps.add(tr.getVersionstamp());
            txs.add(tr);
        }
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (Transaction tr : txs) {
            commits.add(tr.commit());
        }
        commits.forEach(Fdb::await);
        Set<String> seen = new HashSet<>();
        for (CompletableFuture<byte[]> s : stamps) {
            seen.add(Arrays.toString(await(s)));
        }
        assertThat(seen).hasSize(n);
        List<KeyValue> rows = db.read(t -> t.getRange(Range.startsWith(b("q/"))).asList().join());
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            byte[] expectedKey = ByteKeys.concat(b("q/"), await(stamps.get(i)));
            byte[] value = db.read(t -> t.get(expectedKey).join());
            assertThat(value).isEqualTo(b(Integer.toString(i)));
        }
    }

    @Test
    void stampsOfTransactionsInOneBatchDifferOnlyInTheirBatchOrder() {
        // Stamps sort like commit order: version first, then order within the batch.
        int n = 100;
        List<Transaction> txs = new ArrayList<>();
        List<CompletableFuture<byte[]>> stamps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Transaction tr = db.createTransaction();
            tr.set(b("k" + i), b("v"));
            stamps.add(tr.getVersionstamp());
            txs.add(tr);
        }
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        txs.forEach(tr -> commits.add(tr.commit()));
        commits.forEach(Fdb::await);
        for (int i = 0; i < n; i++) {
            byte[] stamp = await(stamps.get(i));
            assertThat(versionOf(stamp)).isEqualTo(txs.get(i).getCommittedVersion());
        }
    }

    @Test
    void readOnlyTransactionVersionstampFailsWithNoCommitVersion() {
        Transaction tr = db.createTransaction();
        await(tr.get(b("k")));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        await(tr.commit());
        assertThat(errorOf(vs)).isEqualTo(2021);
    }

    @Test
    void versionstampFailsWhenTheCommitFails() {
        // NativeAPI commitAndWatch: a failed commit breaks the versionstamp promise with
        // transaction_invalid_version (2020), whatever the commit's own error.
        Transaction tr = db.createTransaction();
        await(tr.get(b("k")));
        tr.set(b("other"), b("x"));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        db.run(t -> {
            t.set(b("k"), b("conflict"));
            return null;
        });
        assertThat(errorOf(tr.commit())).isEqualTo(1020);
        assertThat(errorOf(vs)).isEqualTo(2020);
    }

    @Test
    void getVersionstampAfterCommitFailsWithUsedDuringCommit() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        await(tr.commit());
        assertThat(errorOf(tr::getVersionstamp)).isEqualTo(2017);
    }

    @Test
    void versionstampFailsWithTransactionCancelledWhenCancelled() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        tr.cancel();
        assertThat(errorOf(vs)).isEqualTo(1025);
    }

    @Test
    void versionstampOffsetPastTheEndFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        byte[] key = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN).put(new byte[10]).putInt(1).array();
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, key, b("v")), tr::commit))
                .isEqualTo(2000);
    }

    @Test
    void versionstampedValueShorterThanItsOffsetFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("k"), b("abc")), tr::commit))
                .isEqualTo(2000);
    }

    @Test
    void negativeVersionstampOffsetFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        byte[] value = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN).put(new byte[10]).putInt(-1).array();
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("k"), value), tr::commit))
                .isEqualTo(2000);
    }

    @Test
    void readingBackAVersionstampedKeyFailsWithAccessedUnreadable() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped(b("log/"), new byte[0]), b("v"));
        assertThat(errorOf(tr.getRange(Range.startsWith(b("log/"))).asList())).isEqualTo(1036);
    }

    @Test
    void rangeReadBesideAPendingVersionstampedKeyIsReadable() {
        db.run(t -> {
            t.set(b("z"), b("after"));
            return null;
        });
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped(b("log/"), new byte[0]), b("v"));
        List<KeyValue> before = await(tr.getRange(b("a"), b("log/")).asList());
        assertThat(before).isEmpty();
        List<KeyValue> after = await(tr.getRange(b("m"), b("zz")).asList());
        assertThat(after).hasSize(1);
    }

    @Test
    void readingBackAVersionstampedValueFailsWithAccessedUnreadable() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("k"), stamped(new byte[0], new byte[0]));
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(1036);
    }

    @Test
    void metadataVersionIsWritableByAnyoneWithAVersionstampedValue() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, ByteKeys.METADATA_VERSION_KEY, new byte[14]);
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        await(tr.commit());
        byte[] stamp = await(vs);
        byte[] metadataVersion = db.read(t -> t.get(ByteKeys.METADATA_VERSION_KEY).join());
        assertThat(metadataVersion).isEqualTo(stamp);
    }

    @Test
    void plainSetOfMetadataVersionFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.set(ByteKeys.METADATA_VERSION_KEY, new byte[10]), tr::commit)).isEqualTo(2000);
    }

    @Test
    void plainSetOfMetadataVersionFailsEvenWithSystemKeyAccess() {
        Transaction tr = db.createTransaction();
        tr.options().setAccessSystemKeys();
        assertThat(deferredErrorOf(() -> tr.set(ByteKeys.METADATA_VERSION_KEY, new byte[10]), tr::commit)).isEqualTo(2000);
    }

    @Test
    void atomicAddToMetadataVersionFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.ADD, ByteKeys.METADATA_VERSION_KEY, new byte[8]), tr::commit))
                .isEqualTo(2000);
    }

    @Test
    void metadataVersionAcceptsOnlyTheRequiredOperand() {
        // RYW atomicOp: the operand must be metadataVersionRequiredValue, 14 zero bytes.
        Transaction tr = db.createTransaction();
        byte[] operand = stamped(b("x"), new byte[0]);
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, ByteKeys.METADATA_VERSION_KEY, operand),
                tr::commit)).isEqualTo(2000);
    }

    @Test
    void versionstampedKeyCountsItsOffsetAgainstTheKeySizeLimit() {
        Transaction tr = db.createTransaction();
        byte[] key = stamped(new byte[10_000 - 14 + 1], new byte[0]);
        assertThat(key).hasSize(10_001);
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, key, b("v")), tr::commit))
                .isEqualTo(2102);
    }

    @Test
    void versionstampedValueCountsItsOffsetAgainstTheValueSizeLimit() {
        Transaction tr = db.createTransaction();
        byte[] value = stamped(new byte[100_000 - 14 + 1], new byte[0]);
        assertThat(value).hasSize(100_001);
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("k"), value), tr::commit))
                .isEqualTo(2103);
    }

    @Test
    void handBuiltTupleKeyWithAnIncompleteVersionstampDecodesToTheCommittedStamp() {
        // Tuple layout of ("events", <incomplete versionstamp, user version 7>): the string,
        // then type code 0x33 with 10 stamp bytes and a 2-byte user version.
        byte[] prefix = ByteKeys.concat(Tuple.from("events").pack(), new byte[] {0x33});
        byte[] key = stamped(prefix, new byte[] {0, 7});
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, key, b("payload"));
        CompletableFuture<byte[]> vs = tr.getVersionstamp();
        await(tr.commit());
        byte[] stamp = await(vs);

        byte[] stored = db.read(t -> t.getRange(Tuple.from("events").range()).asList().join()).get(0).getKey();
        Tuple decoded = Tuple.fromBytes(stored);
        assertThat(decoded.getString(0)).isEqualTo("events");
        Versionstamp v = decoded.getVersionstamp(1);
        assertThat(v.isComplete()).isTrue();
        assertThat(v.getUserVersion()).isEqualTo(7);
        byte[] transactionVersion = v.getTransactionVersion();
        assertThat(transactionVersion).isEqualTo(stamp);
    }
}
