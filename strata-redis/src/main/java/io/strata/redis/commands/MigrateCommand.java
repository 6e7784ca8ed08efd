package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;

import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import io.strata.redis.rdb.RdbEncoder;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password | AUTH2
 * username password] [KEYS key ...], as Redis 7.0 does it: the keys are DUMPed, sent to the
 * target as {@code AUTH}, {@code SELECT} and one {@code RESTORE key ttl payload [REPLACE]} each,
 * and, unless COPY, deleted here once the target has accepted them. Replies and errors are
 * Redis's: {@code NOKEY} when no key exists, {@code IOERR error or timeout connecting to the
 * client}, {@code IOERR error or timeout writing|reading to target instance}, {@code ERR Target
 * instance replied with error: ...} (keys the target refused stay here).
 *
 * <h2>Not one atomic step</h2>
 * Redis blocks while it migrates. Here the keys are read in one transaction, sent with no
 * transaction open (network time would outlive one), then deleted in another — each only if
 * its change stamp is still the one read with it, so a key written meanwhile keeps its new
 * value here (the target holds the value it had when read). No socket is cached between calls
 * ({@code migrate_cached_sockets} stays 0).
 *
 * <p>The network part runs on a thread of its own, never on an event loop.
 */
final class MigrateCommand {
    /** The threads that talk to targets: a migration blocks on its socket. */
    private static final ExecutorService NETWORK = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "strata-redis-migrate");
        t.setDaemon(true);
        return t;
    });

    private MigrateCommand() {
    }

    static void register(CommandTable t) {
        t.add("migrate", -6, "write movable_keys", 3, 3, 1, "keyspace dangerous", LOCAL, (inv, tr) -> migrate(inv));
    }

    /** The request, as parsed. */
    private record Request(String host, int port, long db, int timeoutMillis, boolean copy, boolean replace,
                           String username, String password, List<byte[]> keys) {
    }

    /** One key as read: its payload, its TTL (0: none) and its change stamp then. */
    private record Dumped(byte[] key, byte[] payload, long ttl, byte[] stamp) {
    }

    private static Request parse(Invocation inv) {
        boolean copy = false;
        boolean replace = false;
        String username = null;
        String password = null;
        List<byte[]> keys = List.of(inv.arg(3));
        for (int j = 6; j < inv.argc(); j++) {
            int more = inv.argc() - 1 - j;
            String opt = inv.option(j);
            if (opt.equals("COPY")) {
                copy = true;
            } else if (opt.equals("REPLACE")) {
                replace = true;
            } else if (opt.equals("AUTH")) {
                if (more < 1) {
                    throw RedisException.syntax();
                }
                password = inv.argString(++j);
            } else if (opt.equals("AUTH2")) {
                if (more < 2) {
                    throw RedisException.syntax();
                }
                username = inv.argString(++j);
                password = inv.argString(++j);
            } else if (opt.equals("KEYS")) {
                if (inv.arg(3).length != 0) {
                    throw new RedisException("ERR When using MIGRATE KEYS option, the key argument must be set to the empty string");
                }
                keys = Arrays.asList(inv.args()).subList(j + 1, inv.argc());
                break;
            } else {
                throw RedisException.syntax();
            }
        }
        long timeout = inv.longArg(5);
        long db = inv.longArg(4);
        int port;
        try {
            port = Integer.parseInt(inv.argString(2));
        } catch (NumberFormatException e) {
            port = -1;
        }
        int millis = timeout <= 0 ? 1000 : (int) Math.min(timeout, Integer.MAX_VALUE);
        return new Request(inv.argString(1), port, db, millis, copy, replace, username, password, keys);
    }

    private static CompletableFuture<Reply> migrate(Invocation inv) {
        Request r = parse(inv);
        KeyStore keys = inv.server().keys();
        int db = inv.db();
        return inv.server().executor().runInTransaction(tr -> {
            long now = inv.now();
            List<CompletableFuture<Dumped>> each = new ArrayList<>();
            for (byte[] key : r.keys()) {
                CompletableFuture<byte[]> stamp = tr.get(keys.keyspace().stampKey(db, key));
                each.add(keys.get(tr, db, key, now).thenCompose(meta -> meta == null ? CompletableFuture.completedFuture(null)
                        : dump(tr, keys, db, key, meta, now).thenCombine(stamp, (d, s) -> d == null ? null
                        : new Dumped(key, d.payload(), d.ttl(), s))));
            }
            return CompletableFuture.allOf(each.toArray(new CompletableFuture[0])).thenApply(v -> {
                List<Dumped> found = new ArrayList<>();
                each.forEach(f -> {
                    if (f.join() != null) {
                        found.add(f.join());
                    }
                });
                return found;
            });
        }).thenCompose(found -> {
            if (found.isEmpty()) {
                return CompletableFuture.completedFuture(Reply.simple("NOKEY"));
            }
            return CompletableFuture.supplyAsync(() -> send(r, found), NETWORK).thenCompose(outcome ->
                    r.copy() || outcome.accepted().isEmpty() ? CompletableFuture.completedFuture(outcome.reply())
                            : deleteMoved(inv, keys, db, outcome.accepted()).thenApply(ignored -> outcome.reply()));
        });
    }

    /** A key's payload and remaining TTL; null when it expired while being read (Redis skips it). */
    private static CompletableFuture<Dumped> dump(com.apple.foundationdb.Transaction tr, KeyStore keys, int db, byte[] key,
                                                  KeyMeta meta, long now) {
        long ttl = 0;
        if (meta.hasExpiry()) {
            ttl = meta.expireAtMillis() - now;
            if (ttl < 0) {
                return CompletableFuture.completedFuture(null);
            }
            ttl = Math.max(ttl, 1);
        }
        long t = ttl;
        return DumpedValues.read(tr, keys, db, meta).thenApply(v -> new Dumped(key, RdbEncoder.encode(v), t, null));
    }

    /** What the target made of the keys: the reply to give, and the keys it accepted. */
    private record Outcome(Reply reply, List<Dumped> accepted) {
    }

    /** Talks to the target (blocking, on a network thread). */
    private static Outcome send(Request r, List<Dumped> keys) {
        Socket socket = new Socket();
        try (socket) {
            try {
                socket.connect(new InetSocketAddress(r.host(), r.port()), r.timeoutMillis());
                socket.setSoTimeout(r.timeoutMillis());
            } catch (IOException | IllegalArgumentException e) {
                return new Outcome(Reply.error("IOERR error or timeout connecting to the client"), List.of());
            }
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            int preamble = 0;
            if (r.password() != null) {
                command(request, r.username() == null ? List.of(b("AUTH"), b(r.password()))
                        : List.of(b("AUTH"), b(r.username()), b(r.password())));
                preamble++;
            }
            command(request, List.of(b("SELECT"), b(Long.toString(r.db()))));
            preamble++;
            for (Dumped d : keys) {
                List<byte[]> args = new ArrayList<>(List.of(b("RESTORE"), d.key(), b(Long.toString(d.ttl())), d.payload()));
                if (r.replace()) {
                    args.add(b("REPLACE"));
                }
                command(request, args);
            }
            try {
                OutputStream out = socket.getOutputStream();
                out.write(request.toByteArray());
                out.flush();
            } catch (IOException e) {
                return new Outcome(Reply.error("IOERR error or timeout writing to target instance"), List.of());
            }
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String error = null;
            List<Dumped> accepted = new ArrayList<>();
            try {
                for (int i = 0; i < preamble; i++) {
                    String line = line(in);
                    if (line.startsWith("-")) {
                        // AUTH or SELECT refused: nothing was restored.
                        return new Outcome(Reply.error("ERR Target instance replied with error: " + line.substring(1)), List.of());
                    }
                }
                for (Dumped d : keys) {
                    String line = line(in);
                    if (line.startsWith("-")) {
                        error = line.substring(1);
                    } else {
                        accepted.add(d);
                    }
                }
            } catch (IOException e) {
                return new Outcome(Reply.error("IOERR error or timeout reading to target instance"), accepted);
            }
            Reply reply = error == null ? Reply.OK : Reply.error("ERR Target instance replied with error: " + error);
            return new Outcome(reply, accepted);
        } catch (IOException e) {
            return new Outcome(Reply.error("IOERR error or timeout reading to target instance"), List.of());
        }
    }

    /** Deletes the keys the target took, each only if unchanged since it was read. */
    private static CompletableFuture<Void> deleteMoved(Invocation inv, KeyStore keys, int db, List<Dumped> moved) {
        return inv.server().executor().runInTransaction(tr -> {
            long now = inv.now();
            List<CompletableFuture<Void>> each = new ArrayList<>();
            for (Dumped d : moved) {
                CompletableFuture<byte[]> stamp = tr.get(keys.keyspace().stampKey(db, d.key()));
                each.add(keys.getForWrite(tr, db, d.key(), now).thenCombine(stamp, (meta, s) -> {
                    if (meta != null && Arrays.equals(s, d.stamp())) {
                        keys.delete(tr, db, d.key(), meta);
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", d.key());
                    }
                    return null;
                }));
            }
            return CompletableFuture.allOf(each.toArray(new CompletableFuture[0]));
        });
    }

    private static void command(ByteArrayOutputStream out, List<byte[]> args) {
        out.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : args) {
            out.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(a);
            out.writeBytes(new byte[] {'\r', '\n'});
        }
    }

    /** One reply line (the replies expected here are all one line: +OK or -ERR ...). */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int prev = -1;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (prev == '\r' && c == '\n') {
                byte[] bytes = b.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            b.write(c);
            prev = c;
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
