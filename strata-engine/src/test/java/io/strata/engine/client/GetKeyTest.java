package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code getKey}: every selector form and offset over the keys a, c, e, g, the ends of the
 * key space, and selectors resolved through the transaction's own writes.
 */
class GetKeyTest {
    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        load(db, "a", "c", "e", "g");
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    private String key(KeySelector sel) {
        return s(tr.getKey(sel).join());
    }

    private static KeySelector fge(String k) {
        return KeySelector.firstGreaterOrEqual(b(k));
    }

    private static KeySelector fgt(String k) {
        return KeySelector.firstGreaterThan(b(k));
    }

    private static KeySelector llt(String k) {
        return KeySelector.lastLessThan(b(k));
    }

    private static KeySelector lle(String k) {
        return KeySelector.lastLessOrEqual(b(k));
    }

    @Test
    void firstGreaterOrEqual() {
        assertThat(key(fge("c"))).isEqualTo("c");
        assertThat(key(fge("b"))).isEqualTo("c");
        assertThat(key(fge(""))).isEqualTo("a");
    }

    @Test
    void firstGreaterThan() {
        assertThat(key(fgt("c"))).isEqualTo("e");
        assertThat(key(fgt("d"))).isEqualTo("e");
        assertThat(key(fgt(""))).isEqualTo("a");
    }

    @Test
    void lastLessThan() {
        assertThat(key(llt("c"))).isEqualTo("a");
        assertThat(key(llt("d"))).isEqualTo("c");
        assertThat(key(llt("z"))).isEqualTo("g");
    }

    @Test
    void lastLessOrEqual() {
        assertThat(key(lle("c"))).isEqualTo("c");
        assertThat(key(lle("d"))).isEqualTo("c");
        assertThat(key(lle("g"))).isEqualTo("g");
    }

    @Test
    void positiveOffsetsMoveForward() {
        assertThat(key(fge("a").add(1))).isEqualTo("c");
        assertThat(key(fge("a").add(3))).isEqualTo("g");
        assertThat(key(fgt("a").add(2))).isEqualTo("g");
        assertThat(key(llt("c").add(2))).as("(c, false, 2)").isEqualTo("e");
        assertThat(key(lle("c").add(1))).as("(c, true, 1) is firstGreaterThan(c)").isEqualTo("e");
        assertThat(key(new KeySelector(b("b"), false, 2))).isEqualTo("e");
    }

    @Test
    void negativeOffsetsMoveBackward() {
        assertThat(key(lle("g").add(-2))).isEqualTo("c");
        assertThat(key(llt("g").add(-1))).isEqualTo("c");
        assertThat(key(fge("e").add(-1))).as("(e, false, 0) is lastLessThan(e)").isEqualTo("c");
        assertThat(key(fge("e").add(-2))).isEqualTo("a");
        assertThat(key(new KeySelector(b("f"), true, -1))).isEqualTo("c");
    }

    @Test
    void beforeTheFirstKeyResolvesToEmptyKey() {
        assertThat(key(llt("a"))).isEmpty();
        assertThat(key(lle("0"))).isEmpty();
        assertThat(key(fge("e").add(-5))).isEmpty();
        assertThat(key(llt(""))).isEmpty();
    }

    @Test
    void pastTheLastKeyResolvesToFirstSystemKey() {
        assertThat(key(fgt("g"))).isEqualTo("\u00ff");
        assertThat(key(fge("a").add(4))).isEqualTo("\u00ff");
        assertThat(key(fge("a").add(100))).isEqualTo("\u00ff");
        assertThat(key(fge("\u00ff"))).isEqualTo("\u00ff");
    }

    @Test
    void pastTheLastKeyWithSystemKeysResolvesToSystemEnd() {
        tr.options().setReadSystemKeys();
        // The system keys hold the shard map \xff/keyServers/ (as in FoundationDB): its end
        // marker \xff/keyServers/\xff\xff is the last readable key.
        assertThat(key(fgt("g"))).isEqualTo("\u00ff/keyServers/");
        assertThat(key(fgt("\u00ff/keyServers/\u00ff\u00ff"))).isEqualTo("\u00ff\u00ff");
        assertThat(key(fge("\u00ff/keyServers0"))).isEqualTo("\u00ff\u00ff");
    }

    @Test
    void selectorKeyPastTheReadableSpaceIsOutsideLegalRange() {
        assertThat(errorCode(tr.getKey(fge("\u00ff\u0000")))).isEqualTo(2004);
        assertThat(errorCode(tr.getKey(lle("\u00ff/x")))).isEqualTo(2004);
        tr.options().setReadSystemKeys();
        assertThat(key(lle("\u00ff/x"))).isEqualTo("\u00ff/keyServers/\u00ff\u00ff");
        assertThat(key(lle("\u00ff/keyServer"))).isEqualTo("g");
        assertThat(errorCode(tr.getKey(fge("\u00ff\u00ff\u0000")))).isEqualTo(2004);
    }

    @Test
    void mergesOwnSetsAndClears() {
        tr.set(b("b"), b("mine"));
        tr.clear(b("c"));
        assertThat(key(fgt("a"))).isEqualTo("b");
        assertThat(key(fge("c"))).isEqualTo("e");
        assertThat(key(llt("e"))).isEqualTo("b");
        assertThat(key(lle("d"))).isEqualTo("b");
        assertThat(key(fge("a").add(2))).isEqualTo("e");
        assertThat(key(lle("g").add(-2))).isEqualTo("b");
    }

    @Test
    void mergesOwnClearRanges() {
        tr.clear(b("b"), b("g"));
        assertThat(key(fgt("a"))).isEqualTo("g");
        assertThat(key(llt("g"))).isEqualTo("a");
        tr.set(b("d"), b("back"));
        assertThat(key(fgt("a").add(1))).isEqualTo("g");
        assertThat(key(llt("g"))).isEqualTo("d");
        tr.clear(b(""), b("\u00ff"));
        assertThat(key(fge(""))).isEqualTo("\u00ff");
        assertThat(key(lle("z"))).isEmpty();
    }

    @Test
    void mergesOwnAtomicOps() {
        tr.mutate(MutationType.ADD, b("d"), new byte[] {1});
        tr.mutate(MutationType.COMPARE_AND_CLEAR, b("e"), b("e"));
        assertThat(key(fgt("c"))).isEqualTo("d");
        assertThat(key(fgt("d"))).as("e was compared equal and cleared").isEqualTo("g");
        assertThat(key(llt("g"))).isEqualTo("d");
    }

    @Test
    void snapshotGetKeySeesOwnWrites() {
        tr.set(b("b"), b("mine"));
        assertThat(s(tr.snapshot().getKey(fgt("a")).join())).isEqualTo("b");
    }
}
