package io.strata.engine.durability;

import io.strata.engine.commit.BatchLog;
import io.strata.engine.commit.Mutation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The log as the sequencer sees it: appends go to the current segment, and
 * {@link #rotate(long)} starts a new one, so that a checkpoint can later delete the old.
 *
 * <p>Concurrency: {@link #append} and {@link #rotate} run on the sequencer only (rotation
 * as a task between batches); {@link #bytesSinceRotation()} is read by the checkpointer.
 */
public final class SegmentedLog implements BatchLog {
    private final Path directory;
    private final Durability durability;
    private WriteAheadLog current;
    private volatile long bytesSinceRotation;

    SegmentedLog(Path directory, Durability durability, WriteAheadLog first) {
        this.directory = directory;
        this.durability = durability;
        this.current = first;
    }

    @Override
    public void append(long version, List<Mutation> effects) throws IOException {
        bytesSinceRotation += current.append(version, effects);
    }

    /**
     * Closes the current segment and starts one named {@code firstVersion}; every record
     * appended before is in the older segments, every later one (with a version at least
     * {@code firstVersion}) in the new one. Sequencer only, between batches.
     */
    void rotate(long firstVersion) throws IOException {
        WriteAheadLog next = WriteAheadLog.create(directory, firstVersion, durability);
        WriteAheadLog old = current;
        current = next;
        bytesSinceRotation = 0;
        old.close();
    }

    /** Log bytes written since the last rotation: what a checkpoint would let us delete. */
    long bytesSinceRotation() {
        return bytesSinceRotation;
    }

    Path currentSegment() {
        return current.path();
    }

    @Override
    public void close() throws IOException {
        current.close();
    }
}
