package io.strata.engine.durability;

import io.strata.engine.commit.CommitPipeline;
import io.strata.engine.store.VersionedStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Keeps the log of a database on a disk store ({@link io.strata.Storage#SSD}) bounded: the
 * disk store's durable points are its checkpoints, so no checkpoint file is written.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>Once the current segment holds {@code logBytes}, the sequencer rotates the log
 *       between batches to a segment named after the next version, as {@link Checkpointer}
 *       does: every older record is now in closed segments.</li>
 *   <li>A closed segment holds versions below its successor's name. Once the disk store's
 *       version reaches that, the disk store is made durable ({@code makeDurable}, which
 *       covers at least that version), and only then is the segment deleted.</li>
 * </ol>
 * A crash at any point leaves every record the disk store does not durably have in the log:
 * recovery opens the disk store and replays the records newer than its version.
 */
public final class LogTrimmer implements io.strata.engine.Engine.FinalStep {
    private final Path directory;
    private final SegmentedLog log;
    private final CommitPipeline pipeline;
    private final VersionedStore store;
    private final long logBytes;
    private final LogMaintenance thread;

    public LogTrimmer(Path directory, SegmentedLog log, CommitPipeline pipeline, VersionedStore store, long logBytes) {
        this.directory = directory;
        this.log = log;
        this.pipeline = pipeline;
        this.store = store;
        this.logBytes = logBytes;
        this.thread = new LogMaintenance("strata-log-trimmer", directory, "trimming the log", this::step);
    }

    private void step() throws IOException, InterruptedException {
        if (log.bytesSinceRotation() >= logBytes) {
            LogMaintenance.rotate(pipeline, log, v -> { }, () -> { });
        }
        trim();
    }

    /**
     * Deletes the closed segments whose every record the disk store has, after making it
     * durable. Returns how many were deleted.
     */
    public synchronized int trim() throws IOException {
        long diskVersion = store.diskVersion();
        List<Path> segments = LogReplay.segments(directory);
        int covered = 0;
        for (int i = 0; i + 1 < segments.size() && !segments.get(i).equals(log.currentSegment()); i++) {
            if (LogReplay.firstVersion(segments.get(i + 1)) - 1 > diskVersion) {
                break;
            }
            covered = i + 1;
        }
        if (covered == 0) {
            return 0;
        }
        store.makeDiskDurable();
        for (Path segment : segments.subList(0, covered)) {
            Files.delete(segment);
        }
        Fsync.directory(directory);
        return covered;
    }

    /** At close, once the window is on disk: deletes the log the disk store now durably has. */
    @Override
    public void afterWindowWritten() throws IOException {
        trim();
    }

    @Override
    public void close() {
        thread.close();
    }
}
