package io.strata.bench.allocation;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;

import java.util.UUID;

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
 */
public interface DatabaseTarget {
    /** The name in the CSV's {@code latency} column and the charts. */
    String name();

    /** A database and an empty root for one cell; closing it releases or clears them. */
    Cell open();

    /** One cell's database and root. */
    interface Cell extends AutoCloseable {
        Database db();

        Subspace root();

        @Override
        void close();
    }

    /** A fresh in-memory engine per cell with the given added latency. */
    static DatabaseTarget engine(String name, LatencyModel latency) {
        return new DatabaseTarget() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Cell open() {
                Database db = Strata.builder().latency(latency).inMemory();
                Subspace root = new Subspace(Tuple.from("alloc"));
                return new Cell() {
                    @Override
                    public Database db() {
                        return db;
                    }

                    @Override
                    public Subspace root() {
                        return root;
                    }

                    @Override
                    public void close() {
                        db.close();
                    }
                };
            }
        };
    }

    /** Cells on one shared database, each in a fresh subspace cleared afterwards. */
    static DatabaseTarget shared(String name, Database db) {
        return new DatabaseTarget() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Cell open() {
                Subspace root = new Subspace(Tuple.from("strata-bench-allocators", UUID.randomUUID().toString()));
                return new Cell() {
                    @Override
                    public Database db() {
                        return db;
                    }

                    @Override
                    public Subspace root() {
                        return root;
                    }

                    @Override
                    public void close() {
                        db.run(tr -> {
                            tr.clear(root.range());
                            return null;
                        });
                    }
                };
            }
        };
    }
}
