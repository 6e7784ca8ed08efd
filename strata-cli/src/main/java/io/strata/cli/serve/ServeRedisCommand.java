package io.strata.cli.serve;

import com.apple.foundationdb.Database;
import io.strata.MvccWindow;
import io.strata.Storage;
import io.strata.Strata;
import io.strata.cli.ClusterDatabase;
import io.strata.cli.StorageOptions;
import io.strata.engine.client.EngineDatabase;
import io.strata.engine.commit.CommitPipeline;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.eviction.DatabaseMemory;
import io.strata.redis.server.LeakDetection;
import io.strata.redis.server.RedisServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code strata serve redis}: the Redis-compatible server on the embedded engine (durable in a
 * directory by default) or on a FoundationDB cluster.
 */
@Command(name = "redis",
        mixinStandardHelpOptions = true,
        description = {"A Redis-compatible server built from Strata's layers.",
                "Data is durable in --dir (default ./strata-redis-data): a write is acknowledged once it is on disk.",
                "--storage picks where a new directory keeps its data: memory (the default) or ssd",
                "(for data larger than memory); the directory records it, so later starts need none."})
public final class ServeRedisCommand implements Callable<Integer> {
    /**
     * How long the embedded engine under the server keeps old versions: the server owns the
     * engine and takes every read version itself, never setting one, so versions need to stay
     * readable only for its open transactions ({@link MvccWindow#OPEN_TRANSACTIONS}). {@code
     * strata bench redis} opens its server's engine the same way.
     */
    public static final MvccWindow MVCC_WINDOW = MvccWindow.OPEN_TRANSACTIONS;

    /** Where data lives when no option says otherwise, relative to the working directory. */
    static final String DEFAULT_DIR = "strata-redis-data";

    @Option(names = "--port", paramLabel = "N", description = "TCP port (default 6379).")
    Integer port;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to listen on (default 127.0.0.1).")
    String bind;

    @Option(names = "--dir", paramLabel = "PATH", description = "The durable database directory (default ./" + DEFAULT_DIR + ").")
    Path dir;

    @Option(names = "--memory", description = "Keep data in memory only: gone when the server stops.")
    boolean memory;

    @Option(names = {"-C", "--cluster-file"}, paramLabel = "FILE",
            description = "Serve a FoundationDB cluster through fdb-java (needs libfdb_c).")
    Path clusterFile;

    @Option(names = "--requirepass", paramLabel = "PASSWORD", description = "The default user's only password; stored with the ACL users in the database, "
            + "so every server on it agrees (without it, what is stored stays).")
    String requirepass;

    @Mixin
    StorageOptions storageOptions;

    @Option(names = "--config", paramLabel = "FILE",
            description = "A redis.conf: port, bind, requirepass, databases, maxclients, timeout and Redis 7.0's other "
                    + "parameters (CONFIG REWRITE writes it back), and Strata's storage memory|ssd (as --storage, "
                    + "which wins over it).")
    Path config;

    @Option(names = "--user-namespaces",
            description = "Give each ACL user but default a keyspace of its own (directory strata-redis/users/NAME): "
                    + "users see only their own keys, databases and channels.")
    boolean userNamespaces;

    @Override
    public Integer call() throws Exception {
        LeakDetection.offUnlessConfigured();
        int choices = (memory ? 1 : 0) + (dir != null ? 1 : 0) + (clusterFile != null ? 1 : 0);
        if (choices > 1) {
            System.err.println("strata serve redis: choose one of --dir, --memory, --cluster-file");
            return 2;
        }
        String conflict = storageOptions.conflict();
        if (conflict != null) {
            System.err.println("strata serve redis: " + conflict);
            return 2;
        }
        if ((memory || clusterFile != null) && storageOptions.given()) {
            System.err.println("strata serve redis: " + storageOptions.named() + " applies to a database directory (--dir), not to "
                    + (memory ? "--memory, which keeps no directory" : "a FoundationDB cluster (--cluster-file)"));
            return 2;
        }
        RedisConfig settings = RedisConfig.defaults();
        Storage configStorage = null;
        if (config != null) {
            RedisConfFile.Read read;
            try {
                read = RedisConfFile.read(config, settings);
            } catch (IllegalArgumentException e) {
                System.err.println("strata serve redis: " + e.getMessage());
                return 2;
            }
            settings = read.settings();
            configStorage = read.storage();
            if (configStorage != null && (memory || clusterFile != null)) {
                System.err.println("strata serve redis: " + config + " sets storage, which applies to a database directory (--dir), not to "
                        + (memory ? "--memory" : "a FoundationDB cluster (--cluster-file)"));
                return 2;
            }
        }
        if (port != null) {
            settings = settings.withPort(port);
        }
        if (bind != null) {
            settings = settings.withBind(bind);
        }
        if (requirepass != null) {
            settings = settings.withRequirepass(requirepass);
        }
        settings = settings.withUserNamespaces(userNamespaces);
        Database database;
        String where;
        if (memory) {
            database = Strata.builder().mvccWindow(MVCC_WINDOW).inMemory();
            settings = settings.withDurable(false);
            where = "in memory only (--memory): data is lost when the server stops";
        } else if (clusterFile != null) {
            try {
                database = ClusterDatabase.open(clusterFile);
            } catch (LinkageError e) {
                System.err.println("strata serve redis: " + ClusterDatabase.NO_CLIENT_LIBRARY);
                return 1;
            }
            where = "on the FoundationDB cluster of " + clusterFile;
        } else {
            Path directory = (dir != null ? dir : Path.of(DEFAULT_DIR)).toAbsolutePath().normalize();
            Strata.Builder builder = storageOptions.builder().mvccWindow(MVCC_WINDOW);
            if (storageOptions.storage() == null && configStorage != null) {
                builder.storage(configStorage);
            }
            try {
                database = builder.open(directory);
            } catch (IllegalStateException | UncheckedIOException e) {
                System.err.println("strata serve redis: " + e.getMessage());
                return 1;
            }
            String unused = storageOptions.unused(database);
            if (unused != null) {
                System.err.println("strata serve redis: " + unused);
            }
            where = "durable in " + directory + " (" + StorageOptions.of(database).map(s -> "storage " + s.label() + ", ").orElse("")
                    + "fsync before each reply)";
        }
        Storage storage = StorageOptions.of(database).orElse(null);
        if (storage != null) {
            settings = settings.withStorage(storage.label());
        }
        RedisServer server;
        try {
            server = RedisServer.start(database, settings);
        } catch (Exception e) {
            database.close();
            System.err.println("strata serve redis: cannot listen on " + settings.bind() + ":" + settings.port() + ": " + e.getMessage());
            return 1;
        }
        if (database instanceof EngineDatabase engine) {
            // maxmemory is measured against the engine's store; a limit of 0 leaves the engine's default.
            // On the disk engine the store in memory is the window only: no eviction there.
            CommitPipeline pipeline = engine.engine().pipeline();
            java.util.function.LongSupplier used = storage == Storage.SSD ? () -> -1 : pipeline::settledBytes;
            server.applyMaxmemoryTo(DatabaseMemory.of(used, pipeline::settledVersion,
                    bytes -> pipeline.memoryLimit(bytes > 0 ? bytes : CommitPipeline.defaultMemoryLimit()), pipeline::isFull));
        }
        Thread hook = new Thread(() -> {
            server.close();
            database.close();
        }, "strata-redis-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        System.out.println("strata-redis ready on " + settings.bind() + ":" + server.port() + ", data " + where);
        System.out.flush();
        server.stopped().join();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
            database.close();
        } catch (IllegalStateException shuttingDown) {
            // SIGTERM: the hook is already closing the database.
        }
        return 0;
    }
}
