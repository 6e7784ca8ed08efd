package com.apple.foundationdb;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * fdb-java's loader of its native libraries. strata-fdb carries none: the engine runs in
 * Java, and this class is kept only so that code linked against fdb-java still links.
 */
public class JNIUtil {
    private JNIUtil() {}

    /**
     * fdb-java copies a native library out of its jar; strata-fdb has none to copy.
     *
     * @throws FileNotFoundException always, naming the library
     */
    public static File exportLibrary(String libName) throws IOException {
        throw new FileNotFoundException("strata-fdb carries no native library (asked for '" + libName
                + "'): Strata's engine runs in the JVM; use org.foundationdb:fdb-java for FoundationDB's native client");
    }
}
