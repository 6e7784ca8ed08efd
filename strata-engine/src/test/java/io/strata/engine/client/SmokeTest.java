package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SmokeTest {
    private static byte[] b(String s) {
        return s.getBytes();
    }

    @Test
    void setGetRangeAndConflict() {
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                tr.set(b("a"), b("1"));
                tr.set(b("b"), b("2"));
                tr.mutate(MutationType.ADD, b("c"), new byte[] {5, 0});
                return null;
            });
            List<KeyValue> kvs = db.read(tr -> tr.getRange(b("a"), b("z")).asList().join());
            assertThat(kvs).hasSize(3);
            byte[] c = db.read(tr -> tr.get(b("c")).join());
            assertThat(c).containsExactly(5, 0);

            Transaction t1 = db.createTransaction();
            Transaction t2 = db.createTransaction();
            t1.get(b("a")).join();
            t2.get(b("a")).join();
            t1.set(b("a"), b("x"));
            t2.set(b("a"), b("y"));
            t1.commit().join();
            assertThatThrownBy(() -> t2.commit().join()).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(FDBException.class)
                    .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020));
        }
    }

    @Test
    void officialDirectoryLayerRuns() {
        try (Database db = Strata.inMemory()) {
            DirectoryLayer dl = new DirectoryLayer();
            DirectorySubspace a = db.run(tr -> dl.createOrOpen(tr, List.of("app", "users")).join());
            DirectorySubspace again = db.run(tr -> dl.open(tr, List.of("app", "users")).join());
            assertThat(again.getKey()).isEqualTo(a.getKey());
            List<String> children = db.run(tr -> dl.list(tr, List.of("app")).join());
            assertThat(children).containsExactly("users");
            db.run(tr -> {
                tr.set(a.pack(Tuple.from(1)), b("v"));
                return null;
            });
        }
    }
}
