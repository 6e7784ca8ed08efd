package io.strata.redis.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's listening sockets: one per {@code bind} address (Redis's syntax: {@code *} is
 * every IPv4 address, {@code ::*} every IPv6 one, a leading {@code -} makes an address optional)
 * on the {@code port}. CONFIG SET bind/port moves them as Redis does: a new port is opened before
 * the old one closes; new addresses on the same port replace the old ones, which come back if
 * the new ones cannot be bound.
 *
 * <p>Concurrency: synchronized; called at start and from CONFIG SET.
 */
final class Listeners {
    private final ServerBootstrap bootstrap;
    private List<Channel> channels = new ArrayList<>();
    private String boundAddresses;
    private int boundPort = -1;

    Listeners(ServerBootstrap bootstrap) {
        this.bootstrap = bootstrap;
    }

    /**
     * Listens on {@code bind} and {@code port}; null when done, else why not (and the old
     * listeners are still in place). At start, port 0 means any free port; later it means no
     * TCP listener at all, as in Redis.
     */
    synchronized String listen(String bind, int port) {
        if (bind.equals(boundAddresses) && port == boundPort) {
            return null;
        }
        boolean first = boundPort < 0;
        List<Channel> old = channels;
        boolean samePort = port == boundPort;
        if (samePort) {
            closeChannels(old);
        }
        List<Channel> opened = new ArrayList<>();
        String failure = null;
        if (port != 0 || first) {
            failure = bindAll(bind, port, opened);
        }
        if (failure != null) {
            closeChannels(opened);
            if (samePort) {
                List<Channel> restored = new ArrayList<>();
                bindAll(boundAddresses, boundPort, restored);
                channels = restored;
            }
            return failure;
        }
        if (!samePort) {
            closeChannels(old);
        }
        channels = opened;
        boundAddresses = bind;
        boundPort = port;
        return null;
    }

    private String bindAll(String bind, int port, List<Channel> opened) {
        int chosenPort = port;
        for (String word : bind.trim().split("\\s+")) {
            boolean optional = word.startsWith("-");
            String address = optional ? word.substring(1) : word;
            if (address.equals("*")) {
                address = "0.0.0.0";
            } else if (address.equals("::*")) {
                address = "::";
            }
            try {
                Channel c = bootstrap.bind(address, chosenPort).sync().channel();
                opened.add(c);
                chosenPort = ((InetSocketAddress) c.localAddress()).getPort();
            } catch (Exception e) {
                if (!optional) {
                    return "cannot listen on " + address + ":" + port + ": " + e.getMessage();
                }
            }
        }
        return opened.isEmpty() ? "no address to listen on in '" + bind + "'" : null;
    }

    /** The port listened on, or 0 when none. */
    synchronized int port() {
        return channels.isEmpty() ? 0 : ((InetSocketAddress) channels.get(0).localAddress()).getPort();
    }

    synchronized void closeAll() {
        closeChannels(channels);
        channels = new ArrayList<>();
    }

    private static void closeChannels(List<Channel> list) {
        for (Channel c : list) {
            c.close().syncUninterruptibly();
        }
    }
}
