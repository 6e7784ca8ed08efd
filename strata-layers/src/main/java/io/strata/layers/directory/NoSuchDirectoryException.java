package io.strata.layers.directory;

import java.util.List;

/** No directory exists at the path (fdb-java: {@code NoSuchDirectoryException}). */
public class NoSuchDirectoryException extends DirectoryException {
    public NoSuchDirectoryException(List<String> path) {
        super("No such directory", path);
    }
}
