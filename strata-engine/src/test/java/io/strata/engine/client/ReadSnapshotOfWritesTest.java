package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.keys;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A read sees the transaction's writes made before it was issued, not those made while it
 * waits: RYW's iterator takes a snapshot of the write map when the read starts. Here the
 * read version takes 30 ms, so the first reads wait for it while the test keeps writing.
 */
class ReadSnapshotOfWritesTest {
    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.builder().latency(new LatencyModel(30_000, 0, 0)).inMemory();
        load(db, "a", "c");
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    @Test
    void getIgnoresWritesMadeWhileItWaits() {
        tr.set(b("a"), b("before"));
        CompletableFuture<byte[]> a = tr.get(b("a"));
        CompletableFuture<byte[]> c = tr.get(b("c"));
        tr.set(b("a"), b("after"));
        tr.clear(b("c"));
        assertThat(s(a.join())).isEqualTo("before");
        assertThat(s(c.join())).isEqualTo("c");
        assertThat(s(tr.get(b("a")).join())).isEqualTo("after");
        assertThat(tr.get(b("c")).join()).isNull();
    }

    @Test
    void atomicOpsAfterTheReadDoNotChangeIt() {
        tr.mutate(MutationType.APPEND_IF_FITS, b("a"), b("1"));
        CompletableFuture<byte[]> a = tr.get(b("a"));
        tr.mutate(MutationType.APPEND_IF_FITS, b("a"), b("2"));
        assertThat(s(a.join())).isEqualTo("a1");
        assertThat(s(tr.get(b("a")).join())).isEqualTo("a12");
    }

    @Test
    void rangeAndSelectorIgnoreWritesMadeWhileTheyWait() {
        CompletableFuture<List<KeyValue>> rows = tr.getRange(b(""), b("z")).asList();
        CompletableFuture<byte[]> next = tr.getKey(KeySelector.firstGreaterThan(b("a")));
        tr.set(b("b"), b("new"));
        tr.clear(b("a"));
        assertThat(keys(rows.join())).containsExactly("a", "c");
        assertThat(s(next.join())).isEqualTo("c");
    }

    @Test
    void readIssuedBeforeAWriteConflictsOnWhatItRead() {
        CompletableFuture<byte[]> f = tr.get(b("a"));
        tr.set(b("a"), b("mine"));
        f.join();
        db.run(t -> {
            t.set(b("a"), b("theirs"));
            return null;
        });
        assertThat(ReadTests.errorCode(tr.commit())).as("the read found a unwritten when it started").isEqualTo(1020);
    }
}
