package io.strata.cli;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;

import java.nio.file.Path;

/**
 * The one place in the command line that touches {@link FDB}, whose static initializer
 * loads FoundationDB's native client: only a command asked to reach a real FoundationDB
 * cluster calls it, so every other command runs without the library.
 */
public final class ClusterDatabase {
    /** fdb-java 7.3's API version. */
    public static final int API_VERSION = 730;
    /** What a command says when the native client is missing and {@code --cluster-file} asked for it. */
    public static final String NO_CLIENT_LIBRARY =
            "The FoundationDB client library (libfdb_c) must be installed to use --cluster-file.";

    private ClusterDatabase() {}

    /**
     * Opens the cluster named by {@code clusterFile}.
     *
     * @throws LinkageError when the native client library is missing or unusable
     *                      ({@link UnsatisfiedLinkError}, or {@link NoClassDefFoundError} on a
     *                      later attempt in the same JVM)
     */
    public static Database open(Path clusterFile) {
        return FDB.selectAPIVersion(API_VERSION).open(clusterFile.toString());
    }
}
