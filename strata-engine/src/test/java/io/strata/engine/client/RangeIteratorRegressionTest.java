package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Regression tests for range iterators, each named after the bug it pins. */
class RangeIteratorRegressionTest {
    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        db.run(tr -> {
            for (int i = 0; i < 1000; i++) {
                tr.set(key(i), new byte[] {(byte) i});
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

    /**
     * A chunk answered synchronously left its completed future as "the fetch in flight", so
     * the iterator, at the end of its first chunk (256 rows), reported another row and
     * {@code next()} threw {@code IndexOutOfBoundsException}.
     */
    @Test
    void iteratingPastTheFirstChunkThrewIndexOutOfBounds() {
        for (StreamingMode mode : new StreamingMode[] {StreamingMode.ITERATOR, StreamingMode.SMALL, StreamingMode.MEDIUM}) {
            List<byte[]> forward = db.read(tr -> {
                List<byte[]> keys = new ArrayList<>();
                for (KeyValue kv : tr.getRange(key(0), key(1000), 0, false, mode)) {
                    keys.add(kv.getKey());
                }
                return keys;
            });
            assertThat(forward).as("forward, %s", mode).hasSize(1000);
            assertThat(forward.get(999)).isEqualTo(key(999));

            List<byte[]> reverse = db.read(tr -> {
                List<byte[]> keys = new ArrayList<>();
                AsyncIterator<KeyValue> it = tr.getRange(key(0), key(1000), 700, true, mode).iterator();
                while (it.onHasNext().join()) {
                    keys.add(it.next().getKey());
                }
                return keys;
            });
            assertThat(reverse).as("reverse with limit, %s", mode).hasSize(700);
            assertThat(reverse.get(0)).isEqualTo(key(999));
            assertThat(reverse.get(699)).isEqualTo(key(300));
        }
    }

    /**
     * The iterator read lazily, at its first {@code onHasNext}, so it saw writes the
     * transaction made after opening it; fdb-java reads when the iterator is created. The
     * official {@code DirectoryLayer.remove} opens an iterator over a node's subdirectories,
     * clears the node, then iterates: it found no subdirectories and left their nodes and
     * contents behind.
     */
    @Test
    void iteratorOpenedBeforeAClearMissedTheClearedKeys() {
        int seen = db.run(tr -> {
            AsyncIterator<KeyValue> it = tr.getRange(key(0), key(10)).iterator();
            tr.clear(key(0), key(10));
            int n = 0;
            while (it.hasNext()) {
                it.next();
                n++;
            }
            return n;
        });
        assertThat(seen).isEqualTo(10);
        // The clear itself happened, and a read issued after it sees it.
        List<KeyValue> left = db.read(tr -> tr.getRange(key(0), key(10)).asList().join());
        assertThat(left).isEmpty();

        int seenAfterSet = db.run(tr -> {
            AsyncIterator<KeyValue> it = tr.getRange(key(0), key(10)).iterator();
            tr.set(key(5), new byte[] {5});
            int n = 0;
            while (it.hasNext()) {
                it.next();
                n++;
            }
            return n;
        });
        assertThat(seenAfterSet).isZero();
    }
}
