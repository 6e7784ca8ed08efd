package io.strata.engine.nativeclient;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** What {@link NoNativeClientTest} runs in a child JVM: a broad tour of the engine. */
public final class EngineWorkload {
    static final String DONE = "engine workload done";

    private EngineWorkload() {}

    public static void main(String[] args) throws Exception {
        try (Database db = Strata.inMemory()) {
            DirectoryLayer dl = new DirectoryLayer();
            db.run(tr -> dl.createOrOpen(tr, List.of("a", "b")).join());
            db.run(tr -> dl.list(tr, List.of("a")).join());
            db.run(tr -> dl.move(tr, List.of("a", "b"), List.of("a", "c")).join());
            db.runAsync(tr -> {
                tr.set(Tuple.from("k").pack(), Tuple.from(1).pack());
                tr.mutate(MutationType.ADD, Tuple.from("n").pack(), new byte[] {1});
                return tr.get(Tuple.from("k").pack());
            }).join();
            Transaction t1 = db.createTransaction();
            CompletableFuture<Void> watch = t1.watch(Tuple.from("w").pack());
            t1.commit().join();
            db.run(tr -> {
                tr.set(Tuple.from("w").pack(), new byte[] {1});
                return null;
            });
            watch.join();
            Transaction t2 = db.createTransaction();
            try {
                t2.get(Tuple.from("k").pack()).join();
                throw new FDBException("Transaction not committed due to conflict with another transaction", 1020);
            } catch (FDBException e) {
                t2.onError(e).join().close();
            }
        }
        System.out.println(DONE);
    }
}
