package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code getRange(..).asList()}: whatever path collects the rows (a batch that is the range's
 * last is taken whole, others row by row), the caller gets every row, in order, in arrays of
 * its own — changing them changes neither the database nor what the transaction reads again
 * (from its read cache).
 */
class RangeListTest {
    private static final int KEYS = 600; // past ITERATOR's and SMALL's first batch (256 rows)
    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        db.run(tr -> {
            for (int i = 0; i < KEYS; i++) {
                tr.set(key(i), value(i));
            }
            return null;
        });
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes();
    }

    private static byte[] value(int i) {
        return String.format("value-%05d", i).getBytes();
    }

    private static void assertRows(List<KeyValue> rows, int from, int count) {
        assertThat(rows).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(rows.get(i).getKey()).isEqualTo(key(from + i));
            assertThat(rows.get(i).getValue()).isEqualTo(value(from + i));
        }
    }

    private static void scribble(List<KeyValue> rows) {
        for (KeyValue kv : rows) {
            Arrays.fill(kv.getKey(), (byte) 'X');
            Arrays.fill(kv.getValue(), (byte) 'X');
        }
    }

    @ParameterizedTest
    @EnumSource(value = StreamingMode.class, names = {"WANT_ALL", "EXACT", "ITERATOR", "SMALL", "SERIAL"})
    void everyRowComesInArraysOfTheCallersOwn(StreamingMode mode) {
        for (int limit : new int[] {1, 100, 300, KEYS}) {
            try (Transaction tr = db.createTransaction()) {
                List<KeyValue> first = tr.getRange(key(0), key(KEYS), limit, false, mode).asList().join();
                assertRows(first, 0, limit);
                scribble(first);
                // Read again in the same transaction: answered from what the first read taught its cache.
                assertRows(tr.getRange(key(0), key(KEYS), limit, false, mode).asList().join(), 0, limit);
            }
            assertRows(db.read(tr -> tr.getRange(key(0), key(KEYS), limit, false, mode).asList().join()), 0, limit);
        }
    }

    @ParameterizedTest
    @EnumSource(value = StreamingMode.class, names = {"WANT_ALL", "ITERATOR", "SMALL"})
    void withoutALimitEveryBatchIsCollectedInOrder(StreamingMode mode) {
        try (Transaction tr = db.createTransaction()) {
            List<KeyValue> all = tr.getRange(key(0), key(KEYS), 0, false, mode).asList().join();
            assertRows(all, 0, KEYS);
            scribble(all);
            assertRows(tr.getRange(key(0), key(KEYS), 0, false, mode).asList().join(), 0, KEYS);
            List<KeyValue> reversed = tr.getRange(key(0), key(KEYS), 0, true, mode).asList().join();
            assertThat(reversed).hasSize(KEYS);
            assertThat(reversed.get(0).getKey()).isEqualTo(key(KEYS - 1));
        }
    }
}
