package io.strata.layers.directory;

import java.util.List;

/**
 * A directory operation failed on a path. fdb-java's own {@code DirectoryException} family is
 * public but its constructors are package-private, so a layer outside
 * {@code com.apple.foundationdb.directory} cannot throw it; these mirror its classes, names
 * and messages.
 */
public class DirectoryException extends RuntimeException {
    private final List<String> path;

    public DirectoryException(String message, List<String> path) {
        super(message + " (path: " + String.join("/", path) + ")");
        this.path = List.copyOf(path);
    }

    /** The absolute path the operation failed on. */
    public List<String> getPath() {
        return path;
    }
}
