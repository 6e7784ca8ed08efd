package io.strata.cli.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * One line on what a killed server left in its directory — log segments, checkpoints (a
 * {@code .ckpt.tmp} is one being written at the kill), the disk store's table files — so a
 * crash test's output says what the recovery had to deal with.
 */
final class DirectorySummary {
    private DirectorySummary() {}

    static String of(Path db) {
        List<Path> top = list(db);
        StringBuilder b = new StringBuilder();
        b.append(count(top, ".log")).append(" log segments ").append(mib(top, ".log"));
        b.append(", checkpoints ").append(top.stream().filter(p -> name(p).contains(".ckpt")).map(DirectorySummary::name).toList());
        Path ssd = db.resolve("ssd");
        if (Files.isDirectory(ssd)) {
            List<Path> tables = list(ssd);
            b.append(", ssd/ ").append(count(tables, ".sst")).append(" table files ").append(mib(tables, ".sst"));
        }
        return b.toString();
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }

    private static long count(List<Path> files, String suffix) {
        return files.stream().filter(p -> name(p).endsWith(suffix)).count();
    }

    private static String mib(List<Path> files, String suffix) {
        long bytes = files.stream().filter(p -> name(p).endsWith(suffix)).mapToLong(p -> {
            try {
                return Files.size(p);
            } catch (IOException e) {
                return 0; // deleted meanwhile: nothing runs in the directory after the kill, but be lenient
            }
        }).sum();
        return String.format("(%.1f MiB)", bytes / 1048576.0);
    }
}
