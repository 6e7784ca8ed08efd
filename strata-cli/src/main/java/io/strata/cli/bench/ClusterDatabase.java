package io.strata.cli.bench;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;

import java.nio.file.Path;

/**
 * The one place in the command line that touches {@link FDB}, whose static initializer
 * loads FoundationDB's native client: only {@code --cluster-file} reaches it, so every other
 * command runs without the library.
 */
final class ClusterDatabase {
    /** fdb-java 7.3's API version. */
    static final int API_VERSION = 730;
    static final String NO_CLIENT_LIBRARY =
            "The FoundationDB client library (libfdb_c) must be installed to use --cluster-file.";

    private ClusterDatabase() {}

    /**
     * Opens the cluster named by {@code clusterFile}.
     *
     * @throws LinkageError when the native client library is missing or unusable
     *                      ({@link UnsatisfiedLinkError}, or {@link NoClassDefFoundError} on a
     *                      later attempt in the same JVM)
     */
    static Database open(Path clusterFile) {
        return FDB.selectAPIVersion(API_VERSION).open(clusterFile.toString());
    }
}
