package io.strata;

import com.apple.foundationdb.FDBException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Finds the database a program means when it opens "the cluster": FoundationDB's rules for
 * finding the cluster file, with one Strata setting in front of them.
 *
 * <ol>
 *   <li>The system property {@value #DATABASE_PROPERTY}, else the environment variable
 *       {@value #DATABASE_ENV}: a connection string used for every open, whatever cluster
 *       file the program names — so that a test run can put code written for a cluster on
 *       Strata without changing it.</li>
 *   <li>The cluster file the program names.</li>
 *   <li>The file named by the environment variable {@code FDB_CLUSTER_FILE}.</li>
 *   <li>{@code fdb.cluster} in the working directory.</li>
 *   <li>The platform's default: {@code /etc/foundationdb/fdb.cluster} on Linux,
 *       {@code /usr/local/etc/foundationdb/fdb.cluster} on macOS,
 *       {@code C:\ProgramData\foundationdb\fdb.cluster} on Windows.</li>
 * </ol>
 * As in FoundationDB, a file named in steps 2 and 3 must exist (else
 * {@code no_cluster_file_found}, 1515), while steps 4 and 5 apply only when the file is there;
 * when none applies, {@link #locate} answers empty and the caller decides (strata-fdb opens the
 * default in-memory database).
 */
public final class ClusterFile {
    /** The system property that names a Strata database for every open. */
    public static final String DATABASE_PROPERTY = "strata.database";
    /** The environment variable read when {@value #DATABASE_PROPERTY} is not set. */
    public static final String DATABASE_ENV = "STRATA_DATABASE";
    /** FoundationDB's environment variable naming the cluster file. */
    public static final String CLUSTER_FILE_ENV = "FDB_CLUSTER_FILE";

    /**
     * What was found.
     *
     * @param contents the connection string, or the cluster file's whole contents
     * @param file     the cluster file it came from, or null when it came from the setting
     * @param source   where it came from, in words, for messages
     */
    public record Found(String contents, Path file, String source) {
        /** The directory that relative paths in the contents are resolved against. */
        public Path baseDirectory() {
            Path parent = file == null ? null : file.toAbsolutePath().getParent();
            return parent != null ? parent : Path.of("").toAbsolutePath();
        }
    }

    private final UnaryOperator<String> properties;
    private final UnaryOperator<String> environment;
    private final Path workingDirectory;
    private final String osName;

    ClusterFile(UnaryOperator<String> properties, UnaryOperator<String> environment, Path workingDirectory, String osName) {
        this.properties = properties;
        this.environment = environment;
        this.workingDirectory = workingDirectory;
        this.osName = osName;
    }

    /** The rules as this process sees them: its system properties, environment and working directory. */
    public static ClusterFile ofThisProcess() {
        return new ClusterFile(System::getProperty, System::getenv, Path.of("").toAbsolutePath(),
                System.getProperty("os.name", ""));
    }

    /**
     * Applies the rules.
     *
     * @param clusterFilePath the cluster file the program names, or null for the default
     * @throws FDBException 1515 {@code no_cluster_file_found} when a named file does not
     *                      exist, 1513 {@code file_not_readable} when it cannot be read
     */
    public Optional<Found> locate(String clusterFilePath) {
        String setting = properties.apply(DATABASE_PROPERTY);
        if (setting != null && !setting.isBlank()) {
            return Optional.of(new Found(setting, null, "system property " + DATABASE_PROPERTY));
        }
        setting = environment.apply(DATABASE_ENV);
        if (setting != null && !setting.isBlank()) {
            return Optional.of(new Found(setting, null, "environment variable " + DATABASE_ENV));
        }
        if (clusterFilePath != null && !clusterFilePath.isEmpty()) {
            return Optional.of(read(workingDirectory.resolve(clusterFilePath), "cluster file " + clusterFilePath));
        }
        String fromEnvironment = environment.apply(CLUSTER_FILE_ENV);
        if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
            return Optional.of(read(workingDirectory.resolve(fromEnvironment),
                    "cluster file " + fromEnvironment + " (from " + CLUSTER_FILE_ENV + ")"));
        }
        Path local = workingDirectory.resolve("fdb.cluster");
        if (Files.isRegularFile(local)) {
            return Optional.of(read(local, "cluster file " + local));
        }
        Path platformDefault = platformDefault();
        if (platformDefault != null && Files.isRegularFile(platformDefault)) {
            return Optional.of(read(platformDefault, "cluster file " + platformDefault));
        }
        return Optional.empty();
    }

    /** FoundationDB's default cluster file on this platform, or null where it has none. */
    Path platformDefault() {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.contains("linux")) {
            return Path.of("/etc/foundationdb/fdb.cluster");
        }
        if (os.contains("mac") || os.contains("darwin")) {
            return Path.of("/usr/local/etc/foundationdb/fdb.cluster");
        }
        if (os.contains("windows")) {
            return Path.of("C:\\ProgramData\\foundationdb\\fdb.cluster");
        }
        return null;
    }

    private static Found read(Path file, String source) {
        if (!Files.exists(file)) {
            throw new FDBException("No cluster file found in current directory or default location: " + source
                    + " does not exist", 1515);
        }
        try {
            return new Found(Files.readString(file, StandardCharsets.UTF_8), file.toAbsolutePath().normalize(), source);
        } catch (IOException e) {
            throw new FDBException("File could not be read from: " + source + ": " + e.getMessage(), 1513);
        }
    }
}
