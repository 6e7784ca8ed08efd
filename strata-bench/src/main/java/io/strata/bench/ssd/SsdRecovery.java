package io.strata.bench.ssd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Recovery after {@code kill -9} mid-load: a child JVM ({@link SsdLoadChild}, this JVM's class
 * path and {@code -X} options) loads into a fresh directory; once the batches it reported
 * acknowledged hold {@code killAtBytes}, it is killed with {@link Process#destroyForcibly()}
 * (SIGKILL on Linux) — no shutdown hook, no close. Then, in this JVM, the engine is opened on
 * the directory and a key of an acknowledged batch read.
 *
 * <p>Measured: from the start of the open to the return of that first read (the database
 * usable again), then a sample of keys of acknowledged batches checked — every one must be
 * present with its value, since an acknowledged batch was durable.
 */
public final class SsdRecovery {
    private final String engine;
    private final SsdData data;
    private final int loaders;
    private final int batchKeys;
    private final long cacheBytes;

    public SsdRecovery(String engine, SsdData data, int loaders, int batchKeys, long cacheBytes) {
        this.engine = engine;
        this.data = data;
        this.loaders = loaders;
        this.batchKeys = batchKeys;
        this.cacheBytes = cacheBytes;
    }

    /**
     * @param loadedSeconds   how long the child loaded before it was killed
     * @param ackedBytes      keys and values of the batches it reported acknowledged
     * @param openSeconds     open alone
     * @param recoverySeconds open to the first read's return
     * @param checked         keys of acknowledged batches read back
     * @param missing         of those, absent or wrong
     * @param logBytes        the log files ({@code *.log} at the directory's top: Strata's log, RocksDB's WAL)
     *                        the kill left, which the open replays
     */
    public record Result(String engine, double loadedSeconds, long ackedBytes, double openSeconds, double recoverySeconds,
                         int checked, int missing, long logBytes) {}

    public Result run(Path directory, long killAtBytes, int sample) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SsdLoadChild.class.getName());
        command.addAll(List.of(engine, directory.toString(), Long.toString(data.count()), Integer.toString(data.valueBytes()),
                Integer.toString(loaders), Integer.toString(batchKeys), Long.toString(cacheBytes)));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long[] acked = new long[loaders];
        long started = 0;
        double loadedSeconds;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals("opened")) {
                    started = System.nanoTime();
                } else if (line.startsWith("acked ")) {
                    String[] counts = line.substring(6).split(" ");
                    for (int t = 0; t < loaders; t++) {
                        acked[t] = Long.parseLong(counts[t]);
                    }
                    if (data.bytesOf(keys(acked)) >= killAtBytes) {
                        break;
                    }
                } else if (line.equals("done")) {
                    break;
                }
            }
            loadedSeconds = (System.nanoTime() - started) / 1e9;
            child.destroyForcibly();
        } finally {
            child.destroyForcibly();
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the loading child did not end after SIGKILL");
            }
        }
        if (started == 0) {
            throw new IllegalStateException("the loading child ended before opening the database (exit " + child.exitValue() + ")");
        }
        SplittableRandom random = new SplittableRandom(7);
        long probe = ackedIndex(acked, random);
        if (probe < 0) {
            throw new IllegalStateException("the child was killed before any batch was acknowledged; raise the kill point");
        }
        long logBytes;
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(directory)) {
            logBytes = files.filter(p -> p.getFileName().toString().endsWith(".log")).mapToLong(p -> p.toFile().length()).sum();
        }
        System.gc();
        long t0 = System.nanoTime();
        try (SsdTarget target = SsdTarget.open(engine, directory, cacheBytes); SsdTarget.Reader reader = target.reader()) {
            long t1 = System.nanoTime();
            byte[] first = reader.get(data.key(probe));
            long t2 = System.nanoTime();
            int missing = data.isValueOf(probe, first) ? 0 : 1;
            for (int i = 1; i < sample; i++) {
                long k = ackedIndex(acked, random);
                if (!data.isValueOf(k, reader.get(data.key(k)))) {
                    missing++;
                }
            }
            return new Result(engine, loadedSeconds, data.bytesOf(keys(acked)), (t1 - t0) / 1e9, (t2 - t0) / 1e9, sample, missing,
                    logBytes);
        }
    }

    private long keys(long[] acked) {
        long batches = 0;
        for (long a : acked) {
            batches += a;
        }
        return Math.min(data.count(), batches * batchKeys);
    }

    /** A random key index of a batch acknowledged per {@code acked}, or -1 if none was. */
    private long ackedIndex(long[] acked, SplittableRandom random) {
        if (keys(acked) == 0) {
            return -1;
        }
        while (true) {
            int t = random.nextInt(loaders);
            if (acked[t] > 0) {
                long b = t + random.nextLong(acked[t]) * loaders;
                long first = b * batchKeys;
                return first + random.nextLong(Math.min(batchKeys, data.count() - first));
            }
        }
    }

    /** This JVM's memory and collector options ({@code -X…}), for the child to run as this one does. */
    static List<String> jvmOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-X") && !a.startsWith("-Xrun") && !a.startsWith("-Xdebug"))
                .toList();
    }
}
