package io.strata.cli.bench;

import com.apple.foundationdb.Database;
import io.strata.Storage;
import io.strata.cli.StorageOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * {@code strata bench recovery}: how long {@code Strata.open} takes to recover a durable
 * database of a given size. Loads the data through ordinary durable commits (so checkpoints
 * and log are what a real run leaves), closes, and times the reopen, then checks a sample.
 */
@Command(name = "recovery", mixinStandardHelpOptions = true,
        description = {"Loads a durable database of --megabytes, closes it, and times Strata.open on it.",
                "--storage ssd measures the disk storage engine (default: memory)."})
final class BenchRecoveryCommand implements Callable<Integer> {
    @Option(names = "--megabytes", paramLabel = "N", defaultValue = "1024", description = "Data to load, in MiB of keys and values (default: ${DEFAULT-VALUE}).")
    int megabytes;

    @Option(names = "--value-bytes", paramLabel = "N", defaultValue = "1000", description = "Bytes per value (default: ${DEFAULT-VALUE}).")
    int valueBytes;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Where to make the database; it is deleted afterwards (default: ${DEFAULT-VALUE}).")
    Path dir;

    @CommandLine.Mixin
    StorageOptions storageOptions;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (megabytes < 1 || valueBytes < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--megabytes and --value-bytes must be >= 1");
        }
        if (storageOptions.conflict() != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), storageOptions.conflict());
        }
        PrintWriter o = spec.commandLine().getOut();
        Files.createDirectories(dir);
        Path db = Files.createTempDirectory(dir, "recovery-");
        try {
            long keys = ((long) megabytes << 20) / (16 + valueBytes);
            int perTransaction = Math.max(1, (1 << 20) / (16 + valueBytes));
            long start = System.nanoTime();
            Storage storage;
            try (Database d = storageOptions.builder().open(db)) {
                storage = StorageOptions.of(d).orElseThrow();
                for (long k = 0; k < keys; k += perTransaction) {
                    long first = k;
                    long last = Math.min(keys, k + perTransaction);
                    d.run(tr -> {
                        byte[] value = new byte[valueBytes];
                        ThreadLocalRandom.current().nextBytes(value);
                        for (long i = first; i < last; i++) {
                            tr.set(key(i), value);
                        }
                        return null;
                    });
                }
            }
            double loadSeconds = (System.nanoTime() - start) / 1e9;
            long checkpointBytes = size(db, ".ckpt");
            long logBytes = size(db, ".log");
            long allBytes;
            try (Stream<Path> files = Files.walk(db)) {
                allBytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            }
            o.printf("loaded %,d keys (%,d MiB of keys and values) through durable commits in %.1f s, storage %s; "
                            + "on disk: checkpoint %,d MiB, log %,d MiB, all files %,d MiB%n",
                    keys, megabytes, loadSeconds, storage.label(), checkpointBytes >> 20, logBytes >> 20, allBytes >> 20);
            o.flush();
            System.gc();
            long t0 = System.nanoTime();
            try (Database d = storageOptions.builder().open(db)) {
                double recoverySeconds = (System.nanoTime() - t0) / 1e9;
                byte[] probe = d.read(tr -> tr.get(key(keys - 1)).join());
                if (probe == null || probe.length != valueBytes) {
                    o.println("recovery check FAILED: the last key loaded is missing");
                    return 1;
                }
                o.printf("recovery (Strata.open): %.2f s for %,d MiB — %.0f MiB/s%n", recoverySeconds, megabytes, megabytes / recoverySeconds);
            }
            o.flush();
            return 0;
        } finally {
            try (Stream<Path> files = Files.walk(db)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static byte[] key(long i) {
        return ByteBuffer.allocate(16).putLong(0x7374726174610000L).putLong(i).array();
    }

    private static long size(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
