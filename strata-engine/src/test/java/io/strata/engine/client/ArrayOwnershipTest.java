package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.strata.engine.client.Fdb.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * fdb-java copies every array a call takes into native memory before the call returns, and
 * every array a read returns is fresh: a caller may reuse or change its arrays at any time
 * without touching the database. Strata keeps that contract.
 */
class ArrayOwnershipTest {

    private static byte[] committed(Database db, String key) {
        byte[] k = b(key);
        return db.read(tr -> tr.get(k).join());
    }

    private static List<KeyValue> committedRange(Database db, String begin, String end) {
        return db.read(tr -> tr.getRange(b(begin), b(end)).asList().join());
    }

    @Test
    void aReusedBufferDoesNotChangeWhatWasSet() {
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                byte[] key = b("k0");
                byte[] value = new byte[] {0};
                for (int i = 0; i < 3; i++) {
                    key[1] = (byte) ('0' + i);
                    value[0] = (byte) i;
                    tr.set(key, value);
                }
                key[1] = '9';
                value[0] = 9;
                // Read-your-writes sees what was set, not the buffer's later contents.
                assertThat(tr.get(b("k1")).join()).containsExactly(1);
                return null;
            });
            List<KeyValue> all = committedRange(db, "k", "l");
            assertThat(all).extracting(kv -> new String(kv.getKey())).containsExactly("k0", "k1", "k2");
            assertThat(all).extracting(kv -> (int) kv.getValue()[0]).containsExactly(0, 1, 2);
        }
    }

    @Test
    void changingAReturnedArrayChangesNothingStored() {
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                tr.set(b("a"), b("value"));
                return null;
            });
            db.run(tr -> {
                byte[] own = tr.get(b("a")).join();
                own[0] = 'X';
                assertThat(tr.get(b("a")).join()).isEqualTo(b("value"));
                List<KeyValue> kvs = tr.getRange(b("a"), b("b")).asList().join();
                kvs.get(0).getKey()[0] = 'Z';
                kvs.get(0).getValue()[0] = 'Z';
                assertThat(tr.get(b("a")).join()).isEqualTo(b("value"));
                return null;
            });
            assertThat(committed(db, "a")).isEqualTo(b("value"));
            assertThat(committedRange(db, "a", "b"))
                    .singleElement().satisfies(kv -> {
                        assertThat(kv.getKey()).isEqualTo(b("a"));
                        assertThat(kv.getValue()).isEqualTo(b("value"));
                    });
        }
    }

    @Test
    void changingAWrittenValueInTheTransactionChangesNothingStored() {
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                tr.set(b("a"), b("value"));
                byte[] own = tr.get(b("a")).join();
                own[0] = 'X';
                assertThat(tr.get(b("a")).join()).isEqualTo(b("value"));
                byte[] inRange = tr.getRange(b("a"), b("b")).asList().join().get(0).getValue();
                inRange[0] = 'Y';
                return null;
            });
            assertThat(committed(db, "a")).isEqualTo(b("value"));
        }
    }

    @Test
    void atomicOperandsAndClearBoundsAreCopied() {
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                byte[] param = new byte[] {1, 0, 0, 0};
                tr.mutate(MutationType.ADD, b("n"), param);
                param[0] = 100;
                byte[] begin = b("x");
                byte[] end = b("y");
                tr.set(b("x1"), b("1"));
                tr.set(b("z1"), b("1"));
                tr.clear(begin, end);
                end[0] = '{';
                return null;
            });
            assertThat(committed(db, "n")).containsExactly(1, 0, 0, 0);
            assertThat(committed(db, "z1")).isEqualTo(b("1"));
            assertThat(committed(db, "x1")).isNull();
        }
    }

    @Test
    void aKeyChangedAfterASetDoesNotMoveTheWrite() {
        try (Database db = Strata.inMemory()) {
            Transaction tr = db.createTransaction();
            byte[] key = b("m");
            tr.set(key, b("1"));
            key[0] = 'n';
            tr.commit().join();
            tr.close();
            assertThat(committed(db, "m")).isEqualTo(b("1"));
            assertThat(committed(db, "n")).isNull();
            assertThat(Arrays.equals(key, b("n"))).isTrue();
        }
    }
    @Test
    void changingResolvedKeysChangesNoLaterAnswer() {
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                for (int i = 0; i < 5; i++) {
                    tr.set(b("r" + i), b("v"));
                }
                return null;
            });
            db.read(tr -> {
                // Past the last key a selector resolves to the end of the key space, \xff.
                byte[] end = tr.getKey(KeySelector.firstGreaterThan(b("r4"))).join();
                assertThat(end).containsExactly(0xff);
                end[0] = 0;
                assertThat(tr.getKey(KeySelector.firstGreaterThan(b("r4"))).join()).containsExactly(0xff);
                byte[] found = tr.getKey(KeySelector.firstGreaterOrEqual(b("r2"))).join();
                found[1] = '9';
                assertThat(tr.getKey(KeySelector.firstGreaterOrEqual(b("r2"))).join()).isEqualTo(b("r2"));
                return null;
            });
        }
    }

    @Test
    void anIteratorGoesOnFromWhereItWasWhateverTheCallerDoesToItsRows() {
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                for (int i = 0; i < 50; i++) {
                    tr.set(b(String.format("i%02d", i)), b("v"));
                }
                return null;
            });
            List<String> seen = db.read(tr -> {
                List<String> keys = new java.util.ArrayList<>();
                var it = tr.getRange(b("i"), b("j"), 0, false, StreamingMode.SMALL).iterator();
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    keys.add(new String(kv.getKey()));
                    Arrays.fill(kv.getKey(), (byte) 0);
                }
                return keys;
            });
            assertThat(seen).hasSize(50).isSorted().doesNotHaveDuplicates();
            assertThat(committedRange(db, "i", "j")).extracting(kv -> new String(kv.getKey())).isEqualTo(seen);
        }
    }
}
