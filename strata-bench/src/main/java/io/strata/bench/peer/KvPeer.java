package io.strata.bench.peer;

import io.strata.bench.data.Dataset;

/**
 * A transactional key-value engine under benchmark. Thread-safe; each client thread works
 * through its own {@link #session()}.
 */
public interface KvPeer extends AutoCloseable {
    /** Short name used in parameters, tables and CSV: one of {@link #NAMES}. */
    String name();

    /** Writes every key of {@code data} with its value, in large transactions; not timed. */
    void load(Dataset data);

    /** A session for one client thread. */
    KvSession session();

    @Override
    void close();

    /** Every engine name {@link #open} knows. */
    java.util.List<String> NAMES = java.util.List.of(StrataPeer.NAME, RocksDbPeer.NAME,
            StrataPeer.FSYNC_NAME, StrataPeer.OS_BUFFERED_NAME, RocksDbPeer.SYNC_NAME, StrataPeer.SSD_NAME);

    /** Opens the engine named {@code name} (one of {@link #NAMES}), empty. */
    static KvPeer open(String name) {
        return switch (name) {
            case StrataPeer.NAME -> new StrataPeer();
            case RocksDbPeer.NAME -> new RocksDbPeer();
            case StrataPeer.FSYNC_NAME -> StrataPeer.durable(io.strata.engine.durability.Durability.FSYNC);
            case StrataPeer.OS_BUFFERED_NAME -> StrataPeer.durable(io.strata.engine.durability.Durability.OS_BUFFERED);
            case RocksDbPeer.SYNC_NAME -> new RocksDbPeer(true);
            case StrataPeer.SSD_NAME -> StrataPeer.ssd();
            default -> throw new IllegalArgumentException("unknown engine: " + name + " " + NAMES);
        };
    }
}
