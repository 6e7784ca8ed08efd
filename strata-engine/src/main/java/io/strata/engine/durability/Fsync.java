package io.strata.engine.durability;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Syncing files and directories, so that writes, creations, renames and deletions are durable. */
final class Fsync {
    private Fsync() {}

    static void file(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    static void directory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory for syncing; Linux can, and that is where it matters.
            if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
                return;
            }
            throw e;
        }
    }
}
