package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.keys;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.LocalityUtil;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.CloseableAsyncIterator;
import io.strata.Strata;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code \xff/keyServers/}, the shard map fdb-java's {@code LocalityUtil.getBoundaryKeys} reads:
 * on the engine a computed, read-only system range that starts, as FoundationDB's does, with
 * the shard beginning at {@code ""} and ends with the marker {@code \xff/keyServers/\xff\xff}.
 */
class LocalityTest {
    private static final String KEY_SERVERS = "\u00ff/keyServers/";

    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        ReadTests.load(db, "a", "b", "c");
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static List<String> boundaries(CloseableAsyncIterator<byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add(s(it.next()));
            }
        }
        return out;
    }

    @Test
    void getBoundaryKeysReportsTheFirstShard() {
        assertThat(boundaries(LocalityUtil.getBoundaryKeys(db, new byte[0], b("\u00ff")))).containsExactly("");
        // Only boundaries inside the range: the one shard begins before "a".
        assertThat(boundaries(LocalityUtil.getBoundaryKeys(db, b("a"), b("z")))).isEmpty();
        try (Transaction tr = db.createTransaction()) {
            tr.getReadVersion().join();
            assertThat(boundaries(LocalityUtil.getBoundaryKeys(tr, new byte[0], b("\u00ff\u00ff")))).containsExactly("");
        }
    }

    @Test
    void keyServersHoldsTheShardAndTheEndMarker() {
        try (Transaction tr = db.createTransaction()) {
            tr.options().setReadSystemKeys();
            List<KeyValue> rows = tr.getRange(b(KEY_SERVERS), b("\u00ff/keyServers0")).asList().join();
            assertThat(keys(rows)).containsExactly(KEY_SERVERS, KEY_SERVERS + "\u00ff\u00ff");
            // FoundationDB's keyServersValue: protocol version, one source server, no destination.
            ByteBuffer v = ByteBuffer.wrap(rows.get(0).getValue()).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(rows.get(0).getValue()).hasSize(32);
            assertThat(v.getLong()).isEqualTo(0x0FDB00B062010001L);
            assertThat(v.getInt()).isEqualTo(1);
            v.getLong();
            v.getLong();
            assertThat(v.getInt()).isZero();
            assertThat(rows.get(1).getValue()).isEmpty();
            assertThat(tr.get(b(KEY_SERVERS)).join()).isEqualTo(rows.get(0).getValue());
            assertThat(tr.get(b(KEY_SERVERS + "a")).join()).isNull();
        }
    }

    @Test
    void keyServersReadLikeStoredSystemKeys() {
        db.run(tr -> {
            tr.options().setAccessSystemKeys();
            tr.set(b("\u00ff/a"), b("1"));
            tr.set(b("\u00ff/z"), b("2"));
            return null;
        });
        try (Transaction tr = db.createTransaction()) {
            tr.options().setReadSystemKeys();
            assertThat(keys(tr.getRange(b("\u00ff"), b("\u00ff\u00ff")).asList().join()))
                    .containsExactly("\u00ff/a", KEY_SERVERS, KEY_SERVERS + "\u00ff\u00ff", "\u00ff/z");
            assertThat(keys(tr.getRange(b("\u00ff"), b("\u00ff\u00ff"), 0, true).asList().join()))
                    .containsExactly("\u00ff/z", KEY_SERVERS + "\u00ff\u00ff", KEY_SERVERS, "\u00ff/a");
            assertThat(s(tr.getKey(KeySelector.firstGreaterThan(b("\u00ff/a"))).join())).isEqualTo(KEY_SERVERS);
            assertThat(s(tr.getKey(KeySelector.lastLessThan(b("\u00ff/z"))).join())).isEqualTo(KEY_SERVERS + "\u00ff\u00ff");
        }
    }

    @Test
    void aDatabaseLargerThanAShardHasMoreBoundaries() {
        // 45 MB: more than FoundationDB's largest shard for that size (about 41 MB), so the data
        // distributor would split it in two.
        byte[] value = new byte[100_000];
        for (int batch = 0; batch < 5; batch++) {
            int first = batch * 90;
            db.run(tr -> {
                for (int i = first; i < first + 90; i++) {
                    tr.set(b(String.format("k%04d", i)), value);
                }
                return null;
            });
        }
        List<String> found = boundaries(LocalityUtil.getBoundaryKeys(db, new byte[0], b("\u00ff")));
        assertThat(found).hasSize(2);
        assertThat(found.get(0)).isEmpty();
        assertThat(found.get(1)).matches("k0\\d{3}");
        assertThat(boundaries(LocalityUtil.getBoundaryKeys(db, b("k0000"), b("\u00ff")))).containsExactly(found.get(1));
    }

    @Test
    void aWatchOnKeyServersDoesNotFireForTheComputedValue() {
        // Completions run on the sequencer here, so a watch that fired on registration would be
        // done before the next commit returns.
        try (Transaction tr = db.createTransaction(Runnable::run)) {
            tr.options().setReadSystemKeys();
            java.util.concurrent.CompletableFuture<Void> watch = tr.watch(b(KEY_SERVERS));
            tr.commit().join();
            ReadTests.load(db, "later");
            assertThat(watch).isNotDone();
            watch.cancel(true);
        }
    }

    @Test
    void keyServersNeedsSystemKeyAccess() {
        try (Transaction tr = db.createTransaction()) {
            assertThat(errorCode(tr.getRange(b(KEY_SERVERS), b("\u00ff/keyServers0")).asList())).isEqualTo(2004);
        }
    }

    @Test
    void keyServersCannotBeWritten() {
        try (Transaction tr = db.createTransaction()) {
            tr.options().setAccessSystemKeys();
            tr.set(b(KEY_SERVERS + "m"), b("x"));
            assertThat(errorCode(tr.commit())).isEqualTo(2108);
        }
        try (Transaction tr = db.createTransaction()) {
            tr.options().setAccessSystemKeys();
            tr.clear(b(KEY_SERVERS));
            assertThat(errorCode(tr.commit())).isEqualTo(2108);
        }
        try (Transaction tr = db.createTransaction()) {
            tr.options().setAccessSystemKeys();
            tr.clear(b("\u00ff"), b("\u00ff\u00ff"));
            assertThat(errorCode(tr.commit())).isEqualTo(2108);
        }
        try (Transaction tr = db.createTransaction()) {
            tr.options().setAccessSystemKeys();
            tr.mutate(MutationType.ADD, b(KEY_SERVERS + "m"), new byte[8]);
            assertThat(errorCode(tr.commit())).isEqualTo(2108);
        }
        try (Transaction tr = db.createTransaction()) {
            // Without access_system_keys it is key_outside_legal_range, as for any system key.
            tr.set(b(KEY_SERVERS + "m"), b("x"));
            assertThat(errorCode(tr.commit())).isEqualTo(2004);
        }
    }
}
