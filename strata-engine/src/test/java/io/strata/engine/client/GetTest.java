package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code get}: stored values, the transaction's own writes, size and key-space limits. */
class GetTest {
    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        load(db, "a", "b", "c");
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    private String get(String key) {
        return s(tr.get(b(key)).join());
    }

    private static byte[] le(long v, int width) {
        return Arrays.copyOf(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array(), width);
    }

    /** A SET_VERSIONSTAMPED_* parameter: {@code prefix}, a 10-byte placeholder at its end, and the offset. */
    private static byte[] stamped(byte[] prefix) {
        byte[] out = Arrays.copyOf(prefix, prefix.length + 14);
        out[prefix.length + 10] = (byte) prefix.length;
        return out;
    }

    @Test
    void presentKeyReturnsStoredValue() {
        assertThat(get("b")).isEqualTo("b");
    }

    @Test
    void absentKeyReturnsNull() {
        assertThat(get("bb")).isNull();
        assertThat(get("")).isNull();
    }

    @Test
    void seesOwnSetOverStoredValue() {
        tr.set(b("b"), b("mine"));
        tr.set(b("new"), b("fresh"));
        assertThat(get("b")).isEqualTo("mine");
        assertThat(get("new")).isEqualTo("fresh");
    }

    @Test
    void seesOwnClear() {
        tr.clear(b("b"));
        assertThat(get("b")).isNull();
        assertThat(get("a")).isEqualTo("a");
    }

    @Test
    void seesOwnClearRangeAndLaterSetInside() {
        tr.clear(b("a"), b("c"));
        assertThat(get("a")).isNull();
        assertThat(get("b")).isNull();
        assertThat(get("c")).as("the end of a clear range is exclusive").isEqualTo("c");
        tr.set(b("b"), b("again"));
        assertThat(get("b")).isEqualTo("again");
    }

    @Test
    void atomicOpOnUnknownBaseReadsStorageAndApplies() {
        db.run(t -> {
            t.set(b("n"), le(5, 2));
            return null;
        });
        tr.mutate(MutationType.ADD, b("n"), le(3, 2));
        tr.mutate(MutationType.ADD, b("n"), le(10, 2));
        byte[] v = tr.get(b("n")).join();
        assertThat(v).containsExactly(le(18, 2));
    }

    @Test
    void atomicOpOnMissingKeyAppliesToNothing() {
        tr.mutate(MutationType.ADD, b("m"), le(7, 4));
        tr.mutate(MutationType.APPEND_IF_FITS, b("s"), b("xy"));
        tr.mutate(MutationType.MAX, b("x"), le(9, 1));
        byte[] added = tr.get(b("m")).join();
        assertThat(added).containsExactly(le(7, 4));
        assertThat(get("s")).isEqualTo("xy");
        byte[] max = tr.get(b("x")).join();
        assertThat(max).containsExactly(9);
    }

    @Test
    void atomicOpOnOwnSetAndAfterOwnClear() {
        tr.set(b("a"), b("p"));
        tr.mutate(MutationType.APPEND_IF_FITS, b("a"), b("q"));
        assertThat(get("a")).isEqualTo("pq");
        tr.clear(b("b"));
        tr.mutate(MutationType.BIT_OR, b("b"), new byte[] {1});
        byte[] v = tr.get(b("b")).join();
        assertThat(v).as("the clear made the base known and empty").containsExactly(1);
    }

    @Test
    void compareAndClearOnStoredValue() {
        tr.mutate(MutationType.COMPARE_AND_CLEAR, b("a"), b("a"));
        tr.mutate(MutationType.COMPARE_AND_CLEAR, b("b"), b("not b"));
        assertThat(get("a")).isNull();
        assertThat(get("b")).isEqualTo("b");
    }

    @Test
    void versionstampedValueReadBackIsUnreadable() {
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("b"), stamped(new byte[0]));
        assertThat(errorCode(tr.get(b("b")))).isEqualTo(1036);
        assertThat(errorCode(tr.snapshot().get(b("b")))).isEqualTo(1036);
        assertThat(get("a")).isEqualTo("a");
    }

    @Test
    void keyWhereVersionstampedKeyMayLandIsUnreadable() {
        tr.getReadVersion().join();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped(b("vs")), b("v"));
        byte[] highest = Arrays.copyOf(b("vs"), 12);
        Arrays.fill(highest, 2, 12, (byte) 0xff);
        assertThat(errorCode(tr.get(highest))).isEqualTo(1036);
        assertThat(get("vr")).isNull();
        assertThat(get("c")).isEqualTo("c");
    }

    @Test
    void oversizedKeyIsAbsentWithoutError() {
        byte[] huge = new byte[10_001];
        Arrays.fill(huge, (byte) 'a');
        assertThat(tr.get(huge).join()).isNull();
        assertThat(tr.snapshot().get(huge).join()).isNull();
    }

    @Test
    void keyOfExactlyTheLimitIsReadable() {
        byte[] max = new byte[10_000];
        Arrays.fill(max, (byte) 'k');
        db.run(t -> {
            t.set(max, b("v"));
            return null;
        });
        assertThat(s(tr.get(max).join())).isEqualTo("v");
    }

    @Test
    void systemKeyWithoutOptionIsOutsideLegalRange() {
        assertThat(errorCode(tr.get(b("\u00ff")))).isEqualTo(2004);
        assertThat(errorCode(tr.get(b("\u00ff/conf")))).isEqualTo(2004);
        assertThat(errorCode(tr.snapshot().get(b("\u00ff/conf")))).isEqualTo(2004);
    }

    @Test
    void systemKeyReadableWithReadSystemKeys() {
        db.run(t -> {
            t.options().setAccessSystemKeys();
            t.set(b("\u00ff/x"), b("sys"));
            return null;
        });
        tr.options().setReadSystemKeys();
        assertThat(get("\u00ff/x")).isEqualTo("sys");
        assertThat(get("\u00ff")).isNull();
    }

    @Test
    void systemKeyReadableWithAccessSystemKeys() {
        tr.options().setAccessSystemKeys();
        assertThat(get("\u00ff/absent")).isNull();
    }

    @Test
    void keysPastTheSpecialKeySpaceAreOutsideLegalRangeEvenWithSystemKeys() {
        tr.options().setReadSystemKeys();
        assertThat(errorCode(tr.get(b("\u00ff\u00ff\u00ff")))).isEqualTo(2004);
        // [\xff\xff, \xff\xff\xff) is the special key space: \xff\xff itself belongs to no module.
        assertThat(errorCode(tr.get(b("\u00ff\u00ff")))).isEqualTo(2113);
    }

    @Test
    void metadataVersionKeyIsUnreadableAfterOwnVersionstampedWrite() {
        byte[] key = b("\u00ff/metadataVersion");
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, key, stamped(new byte[0]));
        assertThat(errorCode(tr.get(key))).isEqualTo(1036);
    }

    @Test
    void metadataVersionKeyIsReadableByAnyone() {
        byte[] key = b("\u00ff/metadataVersion");
        assertThat(tr.get(key).join()).isNull();
        db.run(t -> {
            t.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, key, stamped(new byte[0]));
            return null;
        });
        byte[] v = db.read(t -> t.get(key).join());
        assertThat(v).hasSize(10);
        byte[] snap = db.read(t -> t.snapshot().get(key).join());
        assertThat(snap).containsExactly(v);
    }
}
