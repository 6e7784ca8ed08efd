package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.strata.engine.client.Fdb.b;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A null key, value or range end is refused with {@link IllegalArgumentException}, as fdb-java
 * refuses it: {@code FDBTransaction.set} and {@code clear} check in Java, every other call in
 * its JNI layer ({@code throwParamNotNull} in {@code bindings/java/fdbJNI.cpp}), synchronously,
 * before a future exists. (A key selector on a null key is another matter: fdb-java's
 * {@code KeySelector.getKey()} copies the key, so selector reads fail with a
 * {@code NullPointerException} there, as here.)
 */
class NullArgumentTest {
    private final Database db = Strata.inMemory();
    private final Transaction tr = db.createTransaction();

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    private static void refused(ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writesRefuseNullArguments() {
        refused(() -> tr.set(null, b("v")));
        refused(() -> tr.set(b("k"), null));
        refused(() -> tr.clear((byte[]) null));
        refused(() -> tr.clear(null, b("z")));
        refused(() -> tr.clear(b("a"), null));
        refused(() -> tr.mutate(MutationType.ADD, null, b("1")));
        refused(() -> tr.mutate(MutationType.ADD, b("k"), null));
    }

    @Test
    void conflictRangesRefuseNullEnds() {
        refused(() -> tr.addReadConflictRange(null, b("z")));
        refused(() -> tr.addWriteConflictRange(b("a"), null));
    }

    @Test
    void readsRefuseNullKeys() {
        refused(() -> tr.get(null));
        refused(() -> tr.snapshot().get(null));
        refused(() -> tr.watch(null));
        refused(() -> tr.getEstimatedRangeSizeBytes(null, b("z")));
        refused(() -> tr.getRangeSplitPoints(b("a"), null, 100));
    }
}
