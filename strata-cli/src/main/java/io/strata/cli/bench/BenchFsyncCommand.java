package io.strata.cli.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;

/**
 * {@code strata bench fsync}: the machine's raw rate of small appends each followed by an
 * fsync, one after another — the most commits per second a log that syncs every commit on
 * its own could reach here. Reported beside the durable-commit figures, it shows what group
 * commit gains.
 */
@Command(name = "fsync", mixinStandardHelpOptions = true,
        description = "Measures appends of 100 bytes, each followed by fsync (FileChannel.force), one at a time.")
final class BenchFsyncCommand implements Callable<Integer> {
    @Option(names = "--seconds", paramLabel = "N", defaultValue = "3", description = "How long to measure (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Directory on the disk to measure; a temporary file is made and removed there (default: ${DEFAULT-VALUE}).")
    Path dir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!(seconds > 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--seconds must be > 0");
        }
        Files.createDirectories(dir);
        Path file = Files.createTempFile(dir, "fsync-probe-", ".tmp");
        long syncs = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer record = ByteBuffer.allocate(100);
            while (System.nanoTime() < end) {
                record.rewind();
                ch.write(record);
                ch.force(false);
                syncs++;
            }
        } finally {
            Files.deleteIfExists(file);
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        PrintWriter o = spec.commandLine().getOut();
        o.printf("raw fsync rate in %s: %,.0f appends+fsyncs/s (%,d in %.1f s, %.1f us each)%n",
                dir.toAbsolutePath(), syncs / elapsed, syncs, elapsed, elapsed * 1e6 / syncs);
        o.flush();
        return 0;
    }
}
