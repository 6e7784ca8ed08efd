package io.strata.bench.memory;

import com.apple.foundationdb.Database;
import io.strata.Strata;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Strata through fdb-java's {@link Database}, as an application uses it: {@code Strata.inMemory()},
 * or {@code Strata.open(dir)} with its defaults (the memory storage engine, a write-ahead log,
 * {@code Durability.FSYNC}, background checkpoints) in a new directory deleted on close. A batch
 * is one {@code db.run} setting its pairs; a check is one read transaction.
 */
final class StrataMemoryTarget implements MemoryTarget {
    private final String name;
    private final Database db;
    /** The durable database's directory, deleted on close; null in memory. */
    private final Path directory;

    private StrataMemoryTarget(String name, Database db, Path directory) {
        this.name = name;
        this.db = db;
        this.directory = directory;
    }

    static StrataMemoryTarget inMemory() {
        return new StrataMemoryTarget(STRATA, Strata.inMemory(), null);
    }

    static StrataMemoryTarget durable(Path tempParent) {
        Path directory;
        try {
            Files.createDirectories(tempParent);
            directory = Files.createTempDirectory(tempParent, "strata-bench-memory-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return new StrataMemoryTarget(STRATA_DURABLE, Strata.open(directory), directory);
        } catch (RuntimeException e) {
            deleteTree(directory);
            throw e;
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void load(PairData data, long first, int count) {
        db.run(tr -> {
            for (long i = first; i < first + count; i++) {
                tr.set(data.key(i), data.value(i));
            }
            return null;
        });
    }

    @Override
    public boolean holds(byte[] key, byte[] value) {
        return Arrays.equals(db.read(tr -> tr.get(key).join()), value);
    }

    @Override
    public boolean hasWindow() {
        return true;
    }

    @Override
    public void close() {
        try {
            db.close();
        } finally {
            if (directory != null) {
                deleteTree(directory);
            }
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
