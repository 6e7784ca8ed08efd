package io.strata.bench.memory;

import java.util.List;

/**
 * What {@code strata bench memory} fills and weighs: something that holds key-value pairs on
 * the heap. Opened after the heap is weighed, so what an empty one holds counts in its figure
 * (spread over the pairs); closed only after the last weighing.
 */
interface MemoryTarget extends AutoCloseable {
    /** {@code Strata.inMemory()}. */
    String STRATA = "strata";
    /** {@code Strata.open(a temporary directory)}, default settings. */
    String STRATA_DURABLE = "strata durable";
    /** The reference: a {@code ConcurrentSkipListMap<byte[], byte[]>} in unsigned byte order. */
    String SKIP_LIST = "ConcurrentSkipListMap";
    /** The rows of a run, in order. */
    List<String> NAMES = List.of(STRATA, STRATA_DURABLE, SKIP_LIST);

    String name();

    /** Writes pairs {@code first .. first + count - 1} of {@code data}: one transaction for a database. */
    void load(PairData data, long first, int count);

    /** Whether the target holds {@code value} under {@code key}. */
    boolean holds(byte[] key, byte[] value);

    /**
     * Whether the target drops anything by itself once the 5-second MVCC window has passed
     * over its writes: the engines do, the map does not.
     */
    boolean hasWindow();

    /** Releases the target (and, for a durable database, deletes its directory). */
    @Override
    void close();

    /** Opens the target named {@code name} ({@link #NAMES}); a durable database in a new directory under {@code tempParent}. */
    static MemoryTarget open(String name, java.nio.file.Path tempParent) {
        return switch (name) {
            case STRATA -> StrataMemoryTarget.inMemory();
            case STRATA_DURABLE -> StrataMemoryTarget.durable(tempParent);
            case SKIP_LIST -> new SkipListTarget();
            default -> throw new IllegalArgumentException("unknown target: " + name + " " + NAMES);
        };
    }
}
