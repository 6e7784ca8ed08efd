package io.strata.redis.server;

import com.apple.foundationdb.Database;
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
import io.netty.handler.timeout.IdleStateHandler;
import io.strata.layers.directory.StrataDirectoryLayer;
import io.strata.redis.blocking.BlockedClients;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandExecutor;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.command.ServerContext;
import io.strata.redis.command.ServerStats;
import io.strata.redis.commands.CommandGroups;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.protocol.RespDecoder;
import io.strata.redis.protocol.RespLimits;
import io.strata.redis.protocol.Reply;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * A Redis-compatible server over a FoundationDB {@link Database}: the embedded engine or a
 * real cluster, the server cannot tell. It keeps its data under the directory
 * {@code strata-redis} of the directory layer ({@link Keyspace} has the layout).
 *
 * <p>Netty serves the connections (epoll where the platform has it, NIO elsewhere); each
 * connection's requests run in order ({@code ClientConnection}), each in a transaction of
 * its own, so the commands of many connections commit together in the engine's batches.
 *
 * <p>Concurrency: {@link #start} and {@link #close} may be called from any thread; the
 * connection registry is a concurrent map.
 */
public final class RedisServer implements AutoCloseable {
    /** The directory the server's keys live in. */
    public static final List<String> DIRECTORY = List.of("strata-redis");

    private final Database database;
    private final RedisConfig config;
    private final LongSupplier clock;
    private final Context context = new Context();
    private final CommandTable commands = new CommandTable();
    private final CommandExecutor executor = new CommandExecutor(context);
    private final Map<Long, ClientConnection> connections = new ConcurrentHashMap<>();
    private final AtomicLong nextClientId = new AtomicLong(1);
    private final ServerStats stats = new ServerStats();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private KeyStore keys;
    private BlockedClients blocked;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Channel listener;

    private RedisServer(Database database, RedisConfig config, LongSupplier clock) {
        this.database = database;
        this.config = config;
        this.clock = clock;
    }

    /** Opens the server's directory in {@code database} and listens as {@code config} says. */
    public static RedisServer start(Database database, RedisConfig config) throws InterruptedException {
        return start(database, config, System::currentTimeMillis);
    }

    /** As {@link #start(Database, RedisConfig)} with an injected clock (Unix milliseconds). */
    public static RedisServer start(Database database, RedisConfig config, LongSupplier clock) throws InterruptedException {
        RedisServer server = new RedisServer(database, config, clock);
        server.open();
        return server;
    }

    private void open() throws InterruptedException {
        Keyspace keyspace = new Keyspace(new StrataDirectoryLayer().createOrOpen(database, DIRECTORY).join());
        keys = new KeyStore(keyspace);
        blocked = new BlockedClients(database, keys, stats, executor::errorReply);
        CommandGroups.registerAll(commands);
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        boss = new MultiThreadIoEventLoopGroup(1, io);
        workers = new MultiThreadIoEventLoopGroup(0, io);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(channelType)
                .option(ChannelOption.SO_BACKLOG, 511)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accept(ch);
                    }
                });
        listener = bootstrap.bind(config.bind(), config.port()).sync().channel();
    }

    private void accept(SocketChannel ch) {
        stats.connectionsReceived.increment();
        long id = nextClientId.getAndIncrement();
        boolean needsAuth = config.requirepass() != null;
        ClientSession session = new ClientSession(id, address(ch.remoteAddress()), address(ch.localAddress()),
                clock.getAsLong(), !needsAuth);
        ClientConnection connection = new ClientConnection(session, executor, () -> connections.remove(id));
        if (connections.size() >= config.maxclients()) {
            stats.rejectedConnections.increment();
            ch.pipeline().addLast(new RefuseConnection("ERR max number of clients reached"));
            return;
        }
        connections.put(id, connection);
        if (config.timeoutSeconds() > 0) {
            ch.pipeline().addLast(new IdleStateHandler(0, 0, config.timeoutSeconds(), TimeUnit.SECONDS));
        }
        ch.pipeline().addLast(new RespDecoder(RespLimits.REDIS_DEFAULTS, () -> !session.authenticated()));
        ch.pipeline().addLast(connection);
    }

    private static String address(InetSocketAddress a) {
        return a == null ? "?" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The port the server listens on (the one chosen when the configuration said 0). */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Completes when the server has stopped (SHUTDOWN or {@link #close}). */
    public CompletableFuture<Void> stopped() {
        return stopped;
    }

    /** Stops listening, closes every connection and waits for the event loops to end. */
    @Override
    public void close() {
        if (listener != null) {
            listener.close().syncUninterruptibly();
        }
        if (workers != null) {
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (boss != null) {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (blocked != null) {
            blocked.close();
        }
        stopped.complete(null);
    }

    /** What commands see of the server. */
    private final class Context implements ServerContext {
        @Override
        public Database database() {
            return database;
        }

        @Override
        public KeyStore keys() {
            return keys;
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
            return config;
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
            return blocked;
        }

        @Override
        public ServerStats stats() {
            return stats;
        }
    }

    /** Answers a connection over {@code maxclients} with Redis's error, then closes it. */
    private static final class RefuseConnection extends io.netty.channel.ChannelInboundHandlerAdapter {
        private final String message;

        RefuseConnection(String message) {
            this.message = message;
        }

        @Override
        public void channelActive(io.netty.channel.ChannelHandlerContext ctx) {
            io.netty.buffer.ByteBuf out = ctx.alloc().buffer();
            io.strata.redis.protocol.RespEncoder.write(Reply.error(message), 2, out);
            ctx.writeAndFlush(out).addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }
    }
}
