package io.strata.bench.peer;

import io.strata.bench.data.Dataset;

/**
 * A transactional key-value engine under benchmark. Thread-safe; each client thread works
 * through its own {@link #session()}.
 */
public interface KvPeer extends AutoCloseable {
    /** Short name used in parameters, tables and CSV: {@code strata} or {@code rocksdb}. */
    String name();

    /** Writes every key of {@code data} with its value, in large transactions; not timed. */
    void load(Dataset data);

    /** A session for one client thread. */
    KvSession session();

    @Override
    void close();

    /** Opens the engine named {@code name} ({@code strata} or {@code rocksdb}), empty. */
    static KvPeer open(String name) {
        return switch (name) {
            case StrataPeer.NAME -> new StrataPeer();
            case RocksDbPeer.NAME -> new RocksDbPeer();
            default -> throw new IllegalArgumentException("unknown engine: " + name + " (strata, rocksdb)");
        };
    }
}
