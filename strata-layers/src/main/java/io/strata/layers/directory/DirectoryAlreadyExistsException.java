package io.strata.layers.directory;

import java.util.List;

/** A directory already exists at the path (fdb-java: {@code DirectoryAlreadyExistsException}). */
public class DirectoryAlreadyExistsException extends DirectoryException {
    public DirectoryAlreadyExistsException(List<String> path) {
        super("Directory already exists", path);
    }
}
