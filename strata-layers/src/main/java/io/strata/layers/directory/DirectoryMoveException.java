package io.strata.layers.directory;

import java.util.List;

/** An invalid move (fdb-java: {@code DirectoryMoveException}). */
public class DirectoryMoveException extends RuntimeException {
    private final List<String> sourcePath;
    private final List<String> destPath;

    public DirectoryMoveException(String message, List<String> sourcePath, List<String> destPath) {
        super(message + " (source path: " + String.join("/", sourcePath)
                + ", destination path: " + String.join("/", destPath) + ")");
        this.sourcePath = List.copyOf(sourcePath);
        this.destPath = List.copyOf(destPath);
    }

    public List<String> getSourcePath() {
        return sourcePath;
    }

    public List<String> getDestPath() {
        return destPath;
    }
}
