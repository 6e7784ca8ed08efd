package io.strata.bench.records;

import io.strata.bench.run.ClosedLoop;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Where the CPU goes in a measured interval: Java Flight Recorder's execution samples (every
 * {@value #PERIOD_MILLIS} ms, each running Java thread's stack), each charged to the code that
 * was running — the first frame from the top that is not the JDK's, so that a hash-map lookup
 * counts for whoever called it, and a stack of JDK frames only (futures completing, executor
 * hand-offs) counts as {@link Part#JDK}.
 *
 * <p>What it does not see: time off the CPU (waiting for an fsync or a lock), garbage
 * collection and the JIT (not Java frames), and native code. Shares are of the samples, so of
 * Java CPU time; the process's whole CPU time is measured beside it ({@link ClosedLoop.Result}).
 */
final class CpuSplit {
    /**
     * The sampling period. JFR's default for profiling, 10 ms, left a few dozen samples in a
     * 5-second cell on this shared 2-core VM; 1 ms (JFR's shortest) gives hundreds.
     */
    static final int PERIOD_MILLIS = 1;

    /** The parts a sample is charged to. */
    enum Part {
        /** The Record Layer (com.apple.foundationdb.record), fdb-extensions' helpers and the Guava it calls. */
        RECORD_LAYER("record layer"),
        /** Protobuf: records and the store header to and from bytes, descriptors. */
        PROTOBUF("protobuf"),
        /** fdb-java's tuple and subspace classes: every key the Record Layer builds or parses. */
        TUPLES("tuples"),
        /** Strata: the engine (transactions, resolver, store, log) and strata-fdb. */
        ENGINE("strata engine"),
        /**
         * The engine's sequencer looking for the next commit for a few microseconds before it
         * parks (CommitPipeline.pollBriefly): CPU spent waiting for work, not doing it, which
         * grows as the load falls.
         */
        SPIN("engine spin-wait"),
        /** Only JDK frames: futures completing, executor hand-offs. */
        JDK("jdk async"),
        /** The benchmark's own code and anything else. */
        OTHER("other");

        final String label;

        Part(String label) {
            this.label = label;
        }
    }

    private Recording recording;
    private Path file;
    private final Map<Part, Long> samples = new EnumMap<>(Part.class);

    /** Starts sampling. */
    void start() {
        recording = new Recording();
        recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(PERIOD_MILLIS));
        recording.start();
    }

    /**
     * Stops sampling and keeps the samples in a file until {@link #analyze()}: reading them
     * runs code the JIT then compiles, which a run should do after its last measured cell.
     */
    void stop() {
        recording.stop();
        try {
            file = Files.createTempFile("strata-bench-records-", ".jfr");
            recording.dump(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            recording.close();
        }
    }

    /** Charges the samples kept by {@link #stop()}, and removes their file. */
    void analyze() {
        if (file == null) {
            return;
        }
        try {
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (e.getStackTrace() != null) {
                    samples.merge(charge(e.getStackTrace().getFrames()), 1L, Long::sum);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind is not worth failing a benchmark for
            }
            file = null;
        }
    }

    /** The number of samples taken. */
    long total() {
        return samples.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The share of the samples charged to {@code part}, 0 to 1. */
    double share(Part part) {
        long total = total();
        return total == 0 ? 0 : samples.getOrDefault(part, 0L) / (double) total;
    }

    /** The part a stack (top frame first) is charged to. */
    static Part charge(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            if (!f.isJavaFrame() || f.getMethod() == null) {
                continue;
            }
            String type = f.getMethod().getType().getName();
            Part p = partOf(type);
            if (p != null) {
                return p == Part.ENGINE && isSpin(type, f.getMethod().getName()) ? Part.SPIN : p;
            }
        }
        return Part.JDK;
    }

    /** Whether a method is the sequencer's wait for work. */
    static boolean isSpin(String className, String methodName) {
        return className.equals("io.strata.engine.commit.CommitPipeline") && methodName.equals("pollBriefly");
    }

    /** The part a class belongs to, or null for the JDK's classes. */
    static Part partOf(String className) {
        if (className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")
                || className.startsWith("com.sun.")) {
            return null;
        }
        if (className.startsWith("com.apple.foundationdb.record.")) {
            return Part.RECORD_LAYER;
        }
        if (className.startsWith("com.apple.foundationdb.tuple.") || className.startsWith("com.apple.foundationdb.subspace.")) {
            // fdb-extensions adds helpers to the tuple package (TupleHelpers, ByteArrayUtil2); they serve the Record Layer.
            return className.contains("TupleHelpers") || className.contains("ByteArrayUtil2") ? Part.RECORD_LAYER : Part.TUPLES;
        }
        if (className.startsWith("com.apple.foundationdb.async.") || className.startsWith("com.apple.foundationdb.map.")
                || className.startsWith("com.apple.foundationdb.util.")) {
            // fdb-extensions (MoreAsyncUtil, RankedSet, BunchedMap...) — but fdb-java's own AsyncUtil
            // and AsyncIterable live in .async too: those are the API the engine implements.
            return className.startsWith("com.apple.foundationdb.async.AsyncUtil")
                    || className.startsWith("com.apple.foundationdb.async.AsyncIter")
                    || className.startsWith("com.apple.foundationdb.async.Cancellable")
                    || className.startsWith("com.apple.foundationdb.async.CloseableAsyncIterator")
                    ? Part.ENGINE : Part.RECORD_LAYER;
        }
        if (className.startsWith("com.google.protobuf.") || className.startsWith("io.strata.examples.records.ShopProto")) {
            return Part.PROTOBUF;
        }
        if (className.startsWith("com.google.common.") || className.startsWith("org.slf4j.")) {
            return Part.RECORD_LAYER;  // only the Record Layer uses Guava and SLF4J here
        }
        if (className.startsWith("io.strata.bench.")) {
            return Part.OTHER;
        }
        if (className.startsWith("io.strata.") || className.startsWith("com.apple.foundationdb.")) {
            return Part.ENGINE;
        }
        return Part.OTHER;
    }
}
