package com.apple.foundationdb;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The entry point of the FoundationDB Java API — here opening Strata's embedded engine
 * instead of a FoundationDB cluster. Code written for fdb-java runs unchanged:
 *
 * <pre>{@code
 * Database db = FDB.selectAPIVersion(730).open();
 * }</pre>
 *
 * <p>This class keeps fdb-java 7.3's contract — {@link #selectAPIVersion} once per process,
 * {@link #instance}, the network's lifecycle ({@link #startNetwork()}, {@link #stopNetwork()},
 * the shutdown hook), network {@link #options()}, the {@link #DEFAULT_EXECUTOR} and the error
 * predicates behind {@link FDBException#isRetryable()} — with no native library behind it:
 * <ul>
 *   <li>{@code open(clusterFile)} finds the database by FoundationDB's rules for the cluster
 *       file, with the system property {@code strata.database} (or the environment variable
 *       {@code STRATA_DATABASE}) in front of them; the file holds a Strata connection string
 *       ({@code strata:memory}, {@code strata:memory:NAME}, {@code strata:PATH?options}). With
 *       nothing configured, {@code open()} gives the JVM's default in-memory database. Every
 *       open of the same target in one JVM reaches the same data. A FoundationDB connection
 *       string is refused with an {@link FDBException} saying what to do instead.</li>
 *   <li>The "network" is the engine's own threads: starting it costs one parked task on the
 *       given executor (as fdb-java's network thread occupies one); stopping it closes every
 *       database this class opened, and, as in fdb-java, it cannot be started again.</li>
 *   <li>Network options are validated as FoundationDB's client validates them and otherwise
 *       have no effect: there is no trace file, TLS connection or external client to
 *       configure.</li>
 * </ul>
 *
 * <p>Concurrency: as in fdb-java, the API version is selected once; the network's state is
 * guarded by this instance's monitor.
 */
public class FDB {
    /** The selected instance; fdb-java's classes read it through {@link #instance()}. */
    static FDB singleton = null;

    /** Daemon threads named as fdb-java names its callback threads. */
    static class DaemonThreadFactory implements ThreadFactory {
        private static final AtomicInteger threadCount = new AtomicInteger();
        private final ThreadFactory factory;

        DaemonThreadFactory(ThreadFactory factory) {
            this.factory = factory;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = factory.newThread(r);
            t.setName("fdb-java-" + threadCount.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }

    /**
     * The default executor of databases and transactions, and of fdb-java's helpers that take
     * no executor ({@code AsyncUtil}): a cached pool of daemon threads, as in fdb-java.
     */
    public static final ExecutorService DEFAULT_EXECUTOR =
            Executors.newCachedThreadPool(new DaemonThreadFactory(Executors.defaultThreadFactory()));

    private final int apiVersion;
    private final NetworkOptions options;
    /** Read by fdb-java's classes (NativeObjectWrapper, iterators) when one is collected unclosed. */
    volatile boolean warnOnUnclosed = true;
    private volatile boolean enableDirectBufferQueries = false;

    // Guarded by this instance's monitor.
    private boolean netStarted = false;
    private boolean netStopped = false;
    private boolean useShutdownHook = true;
    private Thread shutdownHook;
    private final CountDownLatch networkStop = new CountDownLatch(1);
    /** Counted down when the network task has returned (or will never run: see stopNetwork). */
    private final CountDownLatch networkExited = new CountDownLatch(1);
    private boolean networkTaskRunning;

    private FDB(int apiVersion) {
        this.apiVersion = apiVersion;
        this.options = new NetworkOptions(this::setNetworkOption);
    }

    /** The network options; set them before {@link #startNetwork()} (or the first open). */
    public NetworkOptions options() {
        return options;
    }

    /** Whether {@link #selectAPIVersion} has been called. */
    public static boolean isAPIVersionSelected() {
        return singleton != null;
    }

    /**
     * The instance selected by {@link #selectAPIVersion}.
     *
     * @throws FDBException 2200 {@code api_version_unset} when no version was selected
     */
    public static FDB instance() throws FDBException {
        FDB selected = singleton;
        if (selected != null) {
            return selected;
        }
        throw new FDBException("API version is not set", 2200);
    }

    /**
     * Selects the API version, once per process, as fdb-java does: the same version again
     * returns the same instance; another fails.
     *
     * @param version 510 to {@link ApiVersion#LATEST} (730). The engine behaves as FoundationDB
     *                7.3 does at every version; versions only change how fdb-java's own classes
     *                encode (e.g. versionstamps in tuples).
     * @throws IllegalArgumentException when the version is out of range, or another was selected
     */
    public static synchronized FDB selectAPIVersion(final int version) throws FDBException {
        if (singleton != null) {
            if (version != singleton.getAPIVersion()) {
                throw new IllegalArgumentException("FoundationDB API already started at different version");
            }
            return singleton;
        }
        if (version < 510) {
            throw new IllegalArgumentException("API version not supported (minimum 510)");
        }
        if (version > ApiVersion.LATEST) {
            throw new IllegalArgumentException(String.format("API version not supported (maximum %d)", ApiVersion.LATEST));
        }
        singleton = new FDB(version);
        return singleton;
    }

    /** Do not stop the network when the JVM exits; call before the network starts to keep it so. */
    public synchronized void disableShutdownHook() {
        useShutdownHook = false;
        if (shutdownHook != null) {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
            shutdownHook = null;
        }
    }

    /** Whether to print a warning when a closeable object is collected without being closed. */
    public void setUnclosedWarning(boolean warnOnUnclosed) {
        this.warnOnUnclosed = warnOnUnclosed;
    }

    /** The selected API version. */
    public int getAPIVersion() {
        return apiVersion;
    }

    /**
     * Recorded for compatibility; the engine hands results over without the native layer's
     * direct buffers either way.
     */
    public void enableDirectBufferQuery(boolean enabled) {
        enableDirectBufferQueries = enabled;
    }

    /** What {@link #enableDirectBufferQuery} last set. */
    public boolean isDirectBufferQueriesEnabled() {
        return enableDirectBufferQueries;
    }

    /** Resizes fdb-java's pool of direct buffers (kept for compatibility; the engine does not use it). */
    public void resizeDirectBufferPool(int poolSize, int bufferSize) {
        DirectBufferPool.getInstance().resize(poolSize, bufferSize);
    }

    /** @deprecated use {@link #open()}. */
    @Deprecated
    public Cluster createCluster() throws IllegalStateException, FDBException {
        return createCluster(null);
    }

    /** @deprecated use {@link #open(String)}. */
    @Deprecated
    public Cluster createCluster(String clusterFilePath) throws IllegalStateException, FDBException {
        return createCluster(clusterFilePath, DEFAULT_EXECUTOR);
    }

    /** @deprecated use {@link #open(String, Executor)}. */
    @Deprecated
    public Cluster createCluster(String clusterFilePath, Executor e) throws FDBException, IllegalStateException {
        return new Cluster(clusterFilePath, e);
    }

    /** Opens the default database: see the class comment for how it is found. */
    public Database open() throws FDBException {
        return open(null);
    }

    /**
     * Opens the database the cluster file names.
     *
     * @param clusterFilePath the cluster file, or null for the default rules
     */
    public Database open(String clusterFilePath) throws FDBException {
        return open(clusterFilePath, DEFAULT_EXECUTOR);
    }

    /** As {@link #open(String)}, recording the events of its transactions in {@code eventKeeper}. */
    public Database open(String clusterFilePath, EventKeeper eventKeeper) throws FDBException {
        return open(clusterFilePath, DEFAULT_EXECUTOR, eventKeeper);
    }

    /** As {@link #open(String)}, with {@code e} as the default executor of its transactions. */
    public Database open(String clusterFilePath, Executor e) throws FDBException {
        return open(clusterFilePath, e, null);
    }

    /**
     * Opens the database the cluster file names: a new handle, with its own options and
     * default executor, on the target's engine, which other handles of the same target share.
     *
     * @throws FDBException 1515 when a named cluster file does not exist; 2104 when it holds
     *                      no valid connection string; 2108 when it names a FoundationDB cluster;
     *                      1510 when a durable directory cannot be opened
     * @throws IllegalStateException when the network was stopped
     */
    public Database open(String clusterFilePath, Executor e, EventKeeper eventKeeper) throws FDBException {
        synchronized (this) {
            if (!isConnected()) {
                startNetwork();
            }
        }
        return StrataDatabases.open(clusterFilePath, e, eventKeeper);
    }

    /** Starts the network on a daemon thread of its own; {@link #open()} calls this when needed. */
    public void startNetwork() throws FDBException, IllegalStateException {
        startNetwork(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            t.setName("fdb-network-thread");
            return t;
        }));
    }

    /**
     * Starts the network, which then runs on (occupies) one task of {@code e} until
     * {@link #stopNetwork()}. Starting a started network does nothing.
     *
     * @throws IllegalStateException when the network was stopped: it cannot be restarted
     */
    public synchronized void startNetwork(Executor e) throws FDBException, IllegalStateException {
        if (netStopped) {
            throw new IllegalStateException("Network has been stopped and cannot be restarted");
        }
        if (netStarted) {
            return;
        }
        if (useShutdownHook) {
            shutdownHook = new Thread(this::stopNetwork, "fdb-shutdown-hook");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        netStarted = true;
        e.execute(this::runNetwork);
    }

    /** The network "thread": parks until the network is stopped, as fdb-java's runs the client's loop. */
    private void runNetwork() {
        synchronized (this) {
            if (netStopped) {
                return;
            }
            networkTaskRunning = true;
        }
        try {
            boolean stopped = false;
            while (!stopped) {
                try {
                    networkStop.await();
                    stopped = true;
                } catch (InterruptedException ignored) {
                    // As fdb-java's network thread: an interrupt does not stop the network.
                }
            }
        } finally {
            networkExited.countDown();
        }
    }

    private synchronized boolean isConnected() {
        return netStarted && !netStopped;
    }

    /**
     * Stops the network: closes every database opened through this class (their transactions
     * fail from then on) and waits for the network task to return. The network cannot be
     * started again. Also called by the shutdown hook when the JVM exits.
     */
    public synchronized void stopNetwork() throws FDBException {
        if (!netStarted || netStopped) {
            netStopped = true;
            return;
        }
        netStopped = true;
        StrataDatabases.closeAll();
        networkStop.countDown();
        if (!networkTaskRunning) {
            // The task never started (its executor is busy or gone); it will return at once if it does.
            return;
        }
        boolean waited = false;
        while (!waited) {
            try {
                networkExited.await();
                waited = true;
            } catch (InterruptedException ignored) {
                // fdb-java retries the wait after an interrupt too.
            }
        }
    }

    /**
     * FoundationDB's error predicates ({@code fdb_error_predicate}): 50000 retryable, 50001
     * maybe committed, 50002 retryable and not committed.
     *
     * @throws IllegalStateException when no API version was selected, as in fdb-java
     */
    protected static boolean evalErrorPredicate(int predicate, int code) {
        if (singleton == null) {
            throw new IllegalStateException("FDB API not yet initalized");
        }
        return ErrorPredicates.test(predicate, code);
    }

    private void setNetworkOption(int code, byte[] value) {
        boolean started;
        synchronized (this) {
            started = netStarted;
        }
        NetworkOptionRules.validate(code, value, started);
    }
}
