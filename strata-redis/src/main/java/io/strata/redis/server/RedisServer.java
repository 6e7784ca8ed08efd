package io.strata.redis.server;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.strata.redis.blocking.BlockedClients;
import io.strata.redis.acl.AccessControl;
import io.strata.redis.command.AccessClock;
import io.strata.redis.command.ClientPause;
import io.strata.redis.eviction.DatabaseMemory;
import io.strata.redis.eviction.EvictionPolicy;
import io.strata.redis.eviction.Evictor;
import io.strata.redis.keyspace.WatchRegistry;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandExecutor;
import io.strata.redis.command.CommandLanes;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.MonitorFeed;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.command.ServerContext;
import io.strata.redis.scripting.Scripts;
import io.strata.redis.command.ServerStats;
import io.strata.redis.command.SlowLog;
import io.strata.redis.command.LatencyMonitor;
import io.strata.redis.commands.ClientCommand;
import io.strata.redis.commands.CommandGroups;
import io.strata.redis.config.ConfigException;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.config.ServerSettings;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.protocol.RespDecoder;
import io.strata.redis.pubsub.ChannelKind;
import io.strata.redis.pubsub.PubSub;
import io.strata.redis.tracking.ClientTracking;


import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * A Redis-compatible server over a FoundationDB {@link Database}: the embedded engine or a
 * real cluster, the server cannot tell. It keeps its data under the directory
 * {@code strata-redis} of the directory layer ({@code Keyspace} has the layout); with
 * {@code --user-namespaces}, each ACL user's under its own directory ({@link Namespaces}).
 *
 * <p>Netty serves the connections (epoll where the platform has it, NIO elsewhere); each
 * connection's requests run in order ({@code ClientConnection}), each in a transaction of
 * its own, so the commands of many connections commit together in the engine's batches.
 * Every 100 ms the server samples its rates for INFO, and every second it closes clients
 * idle for longer than {@code timeout}.
 *
 * <p>Concurrency: {@link #start} and {@link #close} may be called from any thread; the
 * connection registry is a concurrent map and the number of open connections an atomic
 * counter, so {@code maxclients} holds across event loops. The listeners change only inside
 * CONFIG SET, which {@link ServerSettings} serializes.
 */
public final class RedisServer implements AutoCloseable {
    /** The directory the server's keys live in. */
    public static final List<String> DIRECTORY = List.of("strata-redis");

    private final Database database;
    /** Starts lanes once per event-loop pass ({@link IterationHandOff}). */
    private final Executor laneStarts;
    /**
     * A thread per active lane (the lanes and the cross-lane one): a lane runs its batch and blocks on the commit (db.run), so on
     * the embedded engine its thread runs the commit itself — fsync included — when no other
     * batch is running, instead of handing it to the sequencer and being woken for the next.
     */
    private final ExecutorService laneThreads;
    private static final AtomicInteger LANE_THREAD_IDS = new AtomicInteger();
    private final LongSupplier clock;
    private final ServerSettings settings;
    private final Context context = new Context(null);
    /** The contexts of the users' namespaces (--user-namespaces), one each. */
    private final Map<Namespace, Context> scopedContexts = new ConcurrentHashMap<>();
    private final CommandTable commands = new CommandTable();
    private final CommandExecutor executor = new CommandExecutor(context);
    private final Map<Long, ClientConnection> connections = new ConcurrentHashMap<>();
    /** CLIENT PAUSE: one for the process. */
    private final ClientPause pause;
    /** Client-side caching: one for the process, as Redis's tracking table (keys are kept per namespace). */
    private final ClientTracking tracking = new ClientTracking(id -> {
        ClientConnection c = connections.get(id);
        return c == null ? null : c.session();
    });
    private final AtomicInteger openConnections = new AtomicInteger();
    private final AtomicLong nextClientId = new AtomicLong(1);
    private final ServerStats stats = new ServerStats();
    private final SlowLog slowlog = new SlowLog();
    private final LatencyMonitor latency = new LatencyMonitor();
    private final AccessClock accessClock;
    private final MonitorFeed monitors = new MonitorFeed();
    private final Scripts scripts = new Scripts(context);
    private final String runId = newRunId();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    /** Where this process holds the floor of its WATCHes (set once the main namespace is open). */
    private volatile WatchRegistry watchRegistry;
    /** Publishes the floor; a thread of its own, since publishing commits. */
    private final ScheduledExecutorService watchFloorThread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "strata-redis-watch-floor");
        t.setDaemon(true);
        return t;
    });
    /** How often the floor is checked: a WATCH that ends lets the stamps below its successor go within this. */
    private static final long WATCH_FLOOR_MILLIS = 200;
    /** The floor last published, and when. Watch-floor thread only. */
    private long publishedFloor = Long.MIN_VALUE;
    private long publishedAtMillis;
    /** maxmemory's evictions; the database's gauge comes with {@link #applyMaxmemoryTo}. */
    private final Evictor evictor;
    /** How often abandoned staged values are looked for; their lease is 60 s. */
    private static final long LARGE_VALUE_CLEANUP_SECONDS = 30;
    private Namespaces namespaces;
    private AccessControl acl;
    private InputBarrier inputBarrier;
    /** {@code client-output-buffer-limit}'s normal and pubsub classes, read by every connection as it writes. */
    private volatile OutputBufferLimit.Classes outputLimits = OutputBufferLimit.Classes.NONE;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Listeners listeners;

    private RedisServer(Database database, RedisConfig config, LongSupplier clock) {
        this.database = database;
        this.laneThreads = new ForkJoinPool(CommandLanes.LANES + 1, pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("strata-redis-lane-" + LANE_THREAD_IDS.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, null, true);
        this.laneStarts = new IterationHandOff(laneThreads);
        this.clock = clock;
        this.accessClock = new AccessClock(clock.getAsLong());
        this.evictor = new Evictor(database, () -> namespaces.all().stream().map(n -> n.keys).toList(), accessClock,
                clock, stats, tracking::committed, () -> watchRegistry);
        this.pause = new ClientPause(clock);
        this.settings = new ServerSettings(config, Path.of("").toAbsolutePath().toString());
    }

    /** Opens the server's directory in {@code database} and listens as {@code config} says. */
    public static RedisServer start(Database database, RedisConfig config) throws InterruptedException {
        return start(database, config, System::currentTimeMillis);
    }

    /** As {@link #start(Database, RedisConfig)} with an injected clock (Unix milliseconds). */
    public static RedisServer start(Database database, RedisConfig config, LongSupplier clock) throws InterruptedException {
        RedisServer server = new RedisServer(database, config, clock);
        try {
            server.open(config.users());
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void open(List<List<String>> configuredUsers) throws InterruptedException {
        Namespace main = openNamespace(DIRECTORY);
        watchRegistry = new WatchRegistry(main.keyspace.area('w'), runId);
        publishWatchFloor();
        watchFloorThread.scheduleWithFixedDelay(this::publishWatchFloorQuietly, WATCH_FLOOR_MILLIS, WATCH_FLOOR_MILLIS,
                TimeUnit.MILLISECONDS);
        namespaces = new Namespaces(main, settings.redisConfig().userNamespaces(), path -> {
            List<String> full = new ArrayList<>(DIRECTORY);
            full.addAll(path);
            return openNamespace(full);
        });
        settings.onChange(s -> enableEvents(), "notify-keyspace-events");
        settings.onChange(s -> {
            applyEvictionSettings();
            return null;
        }, "maxmemory", "maxmemory-policy", "maxmemory-samples", "lfu-log-factor", "lfu-decay-time");
        applyEvictionSettings();
        pause.onResume(() -> CompletableFuture.allOf(namespaces.all().stream().map(n -> n.expiry.runNow())
                .toArray(CompletableFuture[]::new)));
        settings.onChange(s -> {
            tracking.limit(s.getLong("tracking-table-max-keys"));
            return null;
        }, "tracking-table-max-keys");
        outputLimits = OutputBufferLimit.Classes.of(settings.get("client-output-buffer-limit"));
        settings.onChange(s -> {
            outputLimits = OutputBufferLimit.Classes.of(s.get("client-output-buffer-limit"));
            return null;
        }, "client-output-buffer-limit");
        CommandGroups.registerAll(commands);
        acl = AccessControl.open(database, main.keyspace.area('u'), commands, clock, new AclClients(),
                settings.redisConfig().requirepass());
        acl.logMaxLength(settings.getLong("acllog-max-len"));
        acl.allChannelsByDefault(settings.get("acl-pubsub-default").equals("allchannels"));
        // redis.conf's user lines, before the first connection: each user as its line says, from a reset.
        for (List<String> line : configuredUsers) {
            List<String> rules = new ArrayList<>();
            rules.add("reset");
            rules.addAll(line.subList(1, line.size()));
            try {
                acl.setUser(null, line.get(0), rules).join();
            } catch (RuntimeException e) {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
                throw new IllegalArgumentException("Error in user declaration '" + line.get(0) + "': " + cause.getMessage(), cause);
            }
        }
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        boss = new MultiThreadIoEventLoopGroup(1, io);
        // Redis's io-threads (default 1): one thread reads, decodes and answers every connection,
        // so requests of different connections start in the order they arrived, as in Redis (a
        // client blocked first is served first); commands themselves run on the engine's threads.
        workers = new MultiThreadIoEventLoopGroup((int) settings.getLong("io-threads"), io);
        inputBarrier = new InputBarrier(workers);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(channelType)
                .option(ChannelOption.SO_BACKLOG, 511)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // A client's FIN ends its input only: what it sent before is still answered (ClientConnection).
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accept(ch);
                    }
                });
        listeners = new Listeners(bootstrap);
        RedisConfig config = settings.redisConfig();
        String failure = listeners.listen(config.bind(), config.port());
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
        if (config.port() == 0 && listeners.port() > 0) {
            settings.observed("port", Integer.toString(listeners.port()));
        }
        settings.onChange(s -> listeners.listen(s.get("bind"), (int) s.getLong("port")) == null ? null
                : "Unable to listen on this port. Check server logs.", "port");
        settings.onChange(s -> listeners.listen(s.get("bind"), (int) s.getLong("port")) == null ? null
                : "Failed to bind to specified addresses.", "bind");
        // The ACL is the one keeper of passwords: requirepass is the default user's, stored for every server.
        settings.onChange(s -> {
            acl.setDefaultPassword(s.get("requirepass").isEmpty() ? null : s.get("requirepass")).join();
            return null;
        }, "requirepass");
        settings.onChange(s -> {
            acl.logMaxLength(s.getLong("acllog-max-len"));
            return null;
        }, "acllog-max-len");
        settings.onChange(s -> {
            acl.allChannelsByDefault(s.get("acl-pubsub-default").equals("allchannels"));
            return null;
        }, "acl-pubsub-default");
        boss.scheduleAtFixedRate(() -> stats.rates.sample(System.nanoTime()), 100, 100, TimeUnit.MILLISECONDS);
        boss.scheduleAtFixedRate(this::closeIdleClients, 1, 1, TimeUnit.SECONDS);
        // Values a crashed server was staging (LargeValues): cleared once their lease has ended.
        boss.scheduleWithFixedDelay(() -> namespaces.all().forEach(n -> n.largeValues.cleanup()),
                0, LARGE_VALUE_CLEANUP_SECONDS, TimeUnit.SECONDS);
    }

    /** Opens a namespace, its keyspace events set as {@code notify-keyspace-events} says now. */
    private Namespace openNamespace(List<String> path) {
        Namespace n = Namespace.open(database, path, () -> inputBarrier.await(), clock, stats, executor::errorReply);
        enableEvents(n);
        n.keys.listen(tracking.listenerFor(n.keys));
        n.blocked.onCommit(tracking::committed);
        n.expiry.onCommit(tracking::committed);
        n.expiry.pausedWhile(pause::paused);
        n.expiry.sweepStampsBelow(() -> watchRegistry);
        n.expiry.timedTo(millis -> latency.record("expire-cycle", millis, settings.latencyMonitorThreshold(), clock.getAsLong() / 1000));
        return n;
    }

    /** Applies {@code notify-keyspace-events} to every namespace (CONFIG SET). */
    private String enableEvents() {
        for (Namespace n : namespaces.all()) {
            String failure = enableEvents(n);
            if (failure != null) {
                return failure;
            }
        }
        return null;
    }

    private String enableEvents(Namespace n) {
        try {
            n.events.enable(NotifyKeyspaceEvents.flags(settings.get("notify-keyspace-events")));
            return null;
        } catch (ConfigException e) {
            return e.getMessage();
        }
    }

    private void accept(SocketChannel ch) {
        long id = nextClientId.getAndIncrement();
        RedisConfig config = settings.redisConfig();
        if (openConnections.incrementAndGet() > config.maxclients()) {
            openConnections.decrementAndGet();
            stats.rejectedConnections.increment();
            ch.pipeline().addLast(new RefuseConnection("ERR max number of clients reached"));
            return;
        }
        stats.connectionsReceived.increment();
        ClientSession session = new ClientSession(id, address(ch.remoteAddress()), address(ch.localAddress()),
                clock.getAsLong(), acl.defaultUserOpen());
        ClientConnection connection = new ClientConnection(session, executor, stats, () -> outputLimits, clock, () -> {
            connections.remove(id);
            monitors.remove(id);
            openConnections.decrementAndGet();
            namespaces.disconnected(session);
            tracking.disable(session);
        });
        connections.put(id, connection);
        ch.pipeline().addLast(new InputCounter(stats.netInputBytes));
        ch.pipeline().addLast(new RespDecoder(settings::limits, () -> acl.authRequired(session)));
        ch.pipeline().addLast(connection);
    }

    /** Redis's client timeout: closes clients idle longer than {@code timeout} seconds (not monitors, not Pub/Sub clients). */
    private void closeIdleClients() {
        long timeout = settings.getLong("timeout");
        if (timeout <= 0) {
            return;
        }
        long now = clock.getAsLong();
        for (ClientConnection c : connections.values()) {
            ClientSession s = c.session();
            if (!monitors.isMonitor(s.id()) && !s.subscribed() && now - s.lastCommandMillis() > timeout * 1000) {
                c.closeIfIdle();
            }
        }
    }

    private static String address(InetSocketAddress a) {
        return a == null ? "?" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    private static String newRunId() {
        byte[] b = new byte[20];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * Lets {@code maxmemory} govern the database, which {@code memory} measures and limits
     * (for whoever opened the database and can: on Strata's engine, its store's estimate and
     * {@code memoryLimit}). Under {@code noeviction} the database's own limit becomes
     * {@code maxmemory} (0 restores its default): past it the database refuses writes, and
     * commands flagged {@code denyoom} get Redis's OOM error before they run. Under a policy
     * that evicts, the database keeps its default limit and the server deletes keys to stay
     * under {@code maxmemory} ({@link Evictor}). Without this, {@code maxmemory} is only
     * recorded, as for a FoundationDB cluster, whose space the cluster manages.
     */
    public void applyMaxmemoryTo(DatabaseMemory memory) {
        this.memory = memory;
        evictor.measureWith(memory);
        evictor.timedTo(millis -> latency.record("eviction-cycle", millis, settings.latencyMonitorThreshold(), clock.getAsLong() / 1000));
        applyEvictionSettings();
    }

    /** The database's gauge and limit ({@link #applyMaxmemoryTo}); null until given. */
    private volatile DatabaseMemory memory;

    /** maxmemory and its policy, applied to the evictor, the access counters and the database's own limit. */
    private synchronized void applyEvictionSettings() {
        long maxmemory = settings.getLong("maxmemory");
        EvictionPolicy policy = EvictionPolicy.of(settings.get("maxmemory-policy"));
        evictor.configure(maxmemory, policy, (int) settings.getLong("maxmemory-samples"));
        accessClock.countFrequency(policy.countsFrequency(), (int) settings.getLong("lfu-log-factor"),
                (int) settings.getLong("lfu-decay-time"));
        DatabaseMemory m = memory;
        if (m != null) {
            // A database that cannot tell its data's size is not evicted from: maxmemory stays its limit.
            m.limit(policy.evicts() && m.usedBytes() >= 0 ? 0 : maxmemory);
        }
    }

    /** The oldest WATCH in force among this process's connections ({@link WatchRegistry#NONE}: none). */
    private long oldestWatch() {
        long oldest = WatchRegistry.NONE;
        for (ClientConnection c : connections.values()) {
            oldest = Math.min(oldest, c.session().watchVersion());
        }
        return oldest;
    }

    /**
     * Publishes this process's floor when it changed or its lease is due. The floor is
     * computed after the transaction's read version is taken, and the entry read, so that a
     * WATCH registering meanwhile either is counted or conflicts (see {@link WatchRegistry}).
     */
    private void publishWatchFloor() {
        long now = clock.getAsLong();
        if (oldestWatch() == publishedFloor && now - publishedAtMillis < WatchRegistry.RENEW_MILLIS) {
            return;
        }
        long floor = database.run(tr -> {
            tr.getReadVersion().join();
            long oldest = oldestWatch();
            watchRegistry.published(tr).join();
            watchRegistry.publish(tr, oldest, now);
            return oldest;
        });
        publishedFloor = floor;
        publishedAtMillis = now;
    }

    private void publishWatchFloorQuietly() {
        try {
            publishWatchFloor();
        } catch (RuntimeException e) {
            // The next round tries again; a database that is closing ends up here too.
            java.util.logging.Logger.getLogger(RedisServer.class.getName()).log(java.util.logging.Level.FINE, "watch floor", e);
        }
    }

    /** The port the server listens on (the one chosen when the configuration said 0). */
    public int port() {
        return listeners.port();
    }

    /** Completes when the server has stopped (SHUTDOWN or {@link #close}). */
    public CompletableFuture<Void> stopped() {
        return stopped;
    }

    /** The server's counters (INFO's and a few of its own). */
    public ServerStats stats() {
        return stats;
    }

    /** Active expiry (tests and DEBUG SET-ACTIVE-EXPIRE turn it off and on). */
    public ExpiryCycle expiryCycle() {
        return namespaces.main().expiry;
    }

    /** Stops listening, closes every connection, stops the expiry cycle and waits for the event loops to end. */
    @Override
    public void close() {
        if (acl != null) {
            acl.close();
        }
        if (listeners != null) {
            listeners.closeAll();
        }
        if (namespaces != null) {
            namespaces.close();
        }
        if (workers != null) {
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (boss != null) {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (namespaces != null) {
            namespaces.closeBlockedClients();
        }
        scripts.close();
        evictor.close();
        watchFloorThread.shutdownNow();
        if (watchRegistry != null) {
            try {
                database.run(tr -> {
                    watchRegistry.withdraw(tr);
                    return null;
                });
            } catch (RuntimeException closing) {
                // Its lease runs out instead.
            }
        }
        laneThreads.shutdown();
        stopped.complete(null);
    }

    /**
     * What commands see of the server: everything is the server's but the keys, blocked clients
     * and pub/sub, which are the namespace's — the server's own, or (with --user-namespaces)
     * the one of the user a connection is authenticated as ({@link #forSession}).
     */
    private final class Context implements ServerContext {
        /** Null for the server's own namespace, which exists only once the server has opened it. */
        private final Namespace fixed;

        Context(Namespace fixed) {
            this.fixed = fixed;
        }

        private Namespace namespace() {
            return fixed != null ? fixed : namespaces.main();
        }

        @Override
        public ServerContext forSession(ClientSession session) {
            if (!namespaces.perUser()) {
                return this;
            }
            Namespace n = namespaces.of(session);
            return n == namespaces.main() ? context : scopedContexts.computeIfAbsent(n, Context::new);
        }

        @Override
        public CompletableFuture<Void> afterCommit(Transaction tr) {
            return namespaces.afterCommit(tr);
        }

        @Override
        public Database database() {
            return database;
        }

        @Override
        public Executor laneExecutor() {
            return laneStarts;
        }

        @Override
        public boolean databaseFull() {
            return evictor.full();
        }

        @Override
        public WatchRegistry watchRegistry() {
            return watchRegistry;
        }

        @Override
        public CompletableFuture<Boolean> makeRoom() {
            return evictor.makeRoom();
        }

        @Override
        public long datasetBytes() {
            return evictor.usedBytes();
        }

        @Override
        public KeyStore keys() {
            return namespace().keys;
        }

        @Override
        public LargeValues largeValues() {
            return namespace().largeValues;
        }

        @Override
        public CommandTable commands() {
            return commands;
        }

        @Override
        public CommandExecutor executor() {
            return executor;
        }

        @Override
        public RedisConfig config() {
            return settings.redisConfig();
        }

        @Override
        public ServerSettings settings() {
            return settings;
        }

        @Override
        public LongSupplier clock() {
            return clock;
        }

        @Override
        public Collection<ClientSession> clients() {
            return connections.values().stream().map(ClientConnection::session).collect(Collectors.toList());
        }

        @Override
        public boolean kill(long id) {
            ClientConnection c = connections.get(id);
            if (c == null) {
                return false;
            }
            c.kill();
            return true;
        }

        @Override
        public void shutdown() {
            Thread t = new Thread(RedisServer.this::close, "strata-redis-shutdown");
            t.start();
        }

        @Override
        public BlockedClients blocked() {
            return namespace().blocked;
        }

        @Override
        public AccessControl acl() {
            return acl;
        }

        @Override
        public PubSub pubsub() {
            return namespace().pubsub;
        }

        @Override
        public ServerStats stats() {
            return stats;
        }

        @Override
        public SlowLog slowlog() {
            return slowlog;
        }

        @Override
        public LatencyMonitor latency() {
            return latency;
        }

        @Override
        public AccessClock accessClock() {
            return accessClock;
        }

        @Override
        public MonitorFeed monitors() {
            return monitors;
        }

        @Override
        public void monitor(ClientSession session) {
            ClientConnection c = connections.get(session.id());
            if (c != null) {
                monitors.add(session.id(), c::send);
            }
        }

        @Override
        public Scripts scripts() {
            return scripts;
        }

        @Override
        public ClientPause pause() {
            return pause;
        }

        @Override
        public ClientTracking tracking() {
            return tracking;
        }

        @Override
        public String runId() {
            return runId;
        }
    }

    /** The connections as the ACL sees them: to close those of deleted users or revoked channels, and for ACL LOG. */
    private final class AclClients implements AccessControl.Clients {
        @Override
        public Collection<ClientSession> all() {
            return context.clients();
        }

        @Override
        public void kill(ClientSession session) {
            context.kill(session.id());
        }

        @Override
        public String describe(ClientSession session, long nowMillis) {
            return ClientCommand.describe(session, nowMillis, 0);
        }

        @Override
        public List<byte[]> subscriptions(ClientSession session, boolean patterns) {
            PubSub pubsub = namespaces.of(session).pubsub;
            if (patterns) {
                return pubsub.subscriptions(session, ChannelKind.PATTERN);
            }
            List<byte[]> names = new ArrayList<>(pubsub.subscriptions(session, ChannelKind.CHANNEL));
            names.addAll(pubsub.subscriptions(session, ChannelKind.SHARD));
            return names;
        }
    }
}
