package io.strata.engine.durability;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One process at a time per database directory: an OS file lock on {@code LOCK}, held while
 * the database is open and released by the OS if the process dies, so a crash never leaves
 * the directory locked.
 */
public final class DirectoryLock implements AutoCloseable {
    static final String FILE = "LOCK";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock at once or fails.
     *
     * @throws IllegalStateException when another process (or this one) has the directory open
     */
    public static DirectoryLock acquire(Path directory) throws IOException {
        FileChannel ch = FileChannel.open(directory.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            ch.close();
            throw new IllegalStateException("the Strata database " + directory + " is already open, in this process or another; "
                    + "only one process at a time may open a database directory");
        }
        return new DirectoryLock(ch, lock);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
