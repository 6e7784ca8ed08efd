package io.strata.layers.directory;

/** The stored directory-layer version is newer than this layer can read or write (fdb-java: {@code DirectoryVersionException}). */
public class DirectoryVersionException extends RuntimeException {
    public DirectoryVersionException(String message) {
        super(message);
    }
}
