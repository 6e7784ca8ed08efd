package io.strata.bench.allocation;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.MvccWindow;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * Where a cell runs: a fresh empty place per cell, named for the CSV's {@code latency}
 * column.
 *
 * <ul>
 *   <li>{@link #engine}: a new {@code Strata.builder().latency(model).inMemory()} database per
 *       cell, closed afterwards; the allocator's root is {@code ("alloc")}.</li>
 *   <li>{@link #shared}: one database opened by the caller (a FoundationDB cluster) used by
 *       every cell; each cell gets its own root, {@code ("strata-bench-allocators", uuid)},
 *       cleared when the cell ends. The caller closes the database.</li>
 * </ul>
 *
 * @param name   the name in the CSV's {@code latency} column and the charts
 * @param opener makes one cell's database and empty root
 */
public record DatabaseTarget(String name, Supplier<Cell> opener) {

    /** One cell's database and root; closing it releases or clears them. */
    public record Cell(Database db, Subspace root, Runnable release) implements AutoCloseable {
        @Override
        public void close() {
            release.run();
        }
    }

    /** A database and an empty root for one cell. */
    public Cell open() {
        return opener.get();
    }

    /** A fresh in-memory engine per cell with the given added latency and MVCC window. */
    public static DatabaseTarget engine(String name, LatencyModel latency, MvccWindow window) {
        return new DatabaseTarget(name, () -> {
            Database db = Strata.builder().latency(latency).mvccWindow(window).inMemory();
            return new Cell(db, new Subspace(Tuple.from("alloc")), db::close);
        });
    }

    /** Cells on one shared database, each in a fresh subspace cleared afterwards. */
    public static DatabaseTarget shared(String name, Database db) {
        return new DatabaseTarget(name, () -> {
            Subspace root = new Subspace(Tuple.from("strata-bench-allocators", UUID.randomUUID().toString()));
            return new Cell(db, root, () -> db.run(tr -> {
                tr.clear(root.range());
                return null;
            }));
        });
    }
}
