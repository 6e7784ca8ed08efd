package io.strata.redis.command;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Runs requests: finds the command, checks what Redis checks before running one (in Redis's
 * order: unknown command, arity, authentication, MULTI queueing), then runs it — a data
 * command in a transaction of its own, retried on conflicts as fdb-java's {@code runAsync}
 * retries, so every command is atomic and sees a consistent snapshot.
 */
public final class CommandExecutor {
    /** What may run while MULTI is open instead of being queued. */
    private static final Set<String> MULTI_CONTROL = Set.of("exec", "discard", "multi", "watch", "quit", "reset");

    private final ServerContext server;
    private final CommandLanes lanes;

    public CommandExecutor(ServerContext server) {
        this.server = server;
        this.lanes = new CommandLanes(server, this);
    }

    /**
     * A request after Redis's checks: either its reply is already known (an error, QUEUED inside
     * MULTI), or it is ready to run ({@link #invocation}).
     */
    public static final class Prepared {
        private final Reply immediate;
        private final Invocation invocation;

        private Prepared(Reply immediate, Invocation invocation) {
            this.immediate = immediate;
            this.invocation = invocation;
        }

        /** The reply, when no execution is needed; else null. */
        public Reply immediate() {
            return immediate;
        }

        public Invocation invocation() {
            return invocation;
        }

        /** Whether it runs in a lane's transaction (see {@link CommandLanes}). */
        public boolean isData() {
            return invocation != null && invocation.spec().kind() == CommandSpec.Kind.DATA;
        }
    }

    /**
     * Whether {@code args} would be prepared as a data command (no side effects: the
     * connection uses it to gather a run of data requests into one unit).
     */
    public boolean wouldRunAsData(ClientSession session, byte[][] args) {
        CommandSpec spec = server.commands().lookup(args[0]);
        return spec != null && spec.kind() == CommandSpec.Kind.DATA && spec.acceptsArgumentCount(args.length)
                && (session.authenticated() || spec.has(CommandFlag.NO_AUTH)) && !session.inMulti()
                && !spec.has(CommandFlag.BLOCKING);
    }

    /** Applies Redis's checks, in Redis's order: unknown command, arity, authentication, MULTI queueing. */
    public Prepared prepare(ClientSession session, byte[][] args) {
        server.stats().commandsProcessed.increment();
        CommandSpec spec = server.commands().lookup(args[0]);
        if (spec == null) {
            return new Prepared(rejected(session, unknownCommand(args)), null);
        }
        session.commandStarted(spec.name(), server.clock().getAsLong());
        if (!spec.acceptsArgumentCount(args.length)) {
            return new Prepared(rejected(session, arityError(spec.name())), null);
        }
        if (!session.authenticated() && !spec.has(CommandFlag.NO_AUTH)) {
            return new Prepared(rejected(session, "NOAUTH Authentication required."), null);
        }
        if (session.inMulti() && !MULTI_CONTROL.contains(spec.name())) {
            if (spec.has(CommandFlag.NO_MULTI)) {
                return new Prepared(rejected(session, "ERR Command not allowed inside a transaction"), null);
            }
            session.queue(args);
            return new Prepared(Reply.QUEUED, null);
        }
        return new Prepared(null, new Invocation(args, session, server, spec));
    }

    /** Runs a prepared request on its own: a local one here, a data one in its lane. */
    public CompletableFuture<Reply> run(Invocation inv) {
        if (inv.spec().kind() == CommandSpec.Kind.DATA && !inv.spec().has(CommandFlag.BLOCKING)) {
            CommandLanes.Unit unit = new CommandLanes.Unit(List.of(inv));
            lanes.submit(unit);
            return unit.replies().thenApply(r -> r.get(0));
        }
        CompletableFuture<Reply> result;
        try {
            result = inv.spec().kind() == CommandSpec.Kind.LOCAL
                    ? inv.execute(null)
                    : server.database().runAsync(inv::execute);
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.handle((reply, error) -> error == null ? reply : errorReply(error));
    }

    /** Runs a connection's run of data requests, in order, in a lane; one reply per request. */
    public CompletableFuture<List<Reply>> runData(List<Invocation> requests) {
        CommandLanes.Unit unit = new CommandLanes.Unit(requests);
        lanes.submit(unit);
        return unit.replies();
    }

    /** Executes one request of {@code session}; the future never fails: errors are error replies. */
    public CompletableFuture<Reply> execute(ClientSession session, byte[][] args) {
        Prepared p = prepare(session, args);
        return p.immediate() != null ? CompletableFuture.completedFuture(p.immediate()) : run(p.invocation());
    }

    /**
     * Runs queued requests one after another inside {@code tr} (EXEC): a command's error
     * becomes its reply and the others still run, as in Redis; a database error (a conflict)
     * fails the whole attempt so the caller retries it.
     */
    public CompletableFuture<List<Reply>> executeAll(ClientSession session, List<byte[][]> requests, Transaction tr) {
        List<Reply> replies = new ArrayList<>(requests.size());
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (byte[][] args : requests) {
            chain = chain.thenCompose(ignored -> {
                CommandSpec spec = server.commands().lookup(args[0]);
                Invocation inv = new Invocation(args, session, server, spec);
                CompletableFuture<Reply> one = inv.execute(spec.kind() == CommandSpec.Kind.LOCAL ? null : tr);
                return one.handle((reply, error) -> {
                    if (error == null) {
                        replies.add(reply);
                        return null;
                    }
                    Throwable cause = unwrap(error);
                    if (cause instanceof RedisException) {
                        replies.add(Reply.error(cause.getMessage()));
                        return null;
                    }
                    throw new CompletionException(cause);
                });
            });
        }
        return chain.thenApply(ignored -> replies);
    }

    /** Checks a request for queueing in MULTI the way {@link #execute} would; null when it may be queued. */
    public String checkQueueable(ClientSession session, byte[][] args) {
        CommandSpec spec = server.commands().lookup(args[0]);
        if (spec == null) {
            return unknownCommand(args);
        }
        if (!spec.acceptsArgumentCount(args.length)) {
            return arityError(spec.name());
        }
        return null;
    }

    private Reply rejected(ClientSession session, String message) {
        if (session.inMulti()) {
            session.flagMultiError();
        }
        server.stats().totalErrorReplies.increment();
        return Reply.error(message);
    }

    /** The error reply for a failure: Redis's words for ours, FoundationDB's code for the database's. */
    public Reply errorReply(Throwable error) {
        Throwable cause = unwrap(error);
        server.stats().totalErrorReplies.increment();
        if (cause instanceof RedisException) {
            return Reply.error(cause.getMessage());
        }
        if (cause instanceof FDBException) {
            FDBException f = (FDBException) cause;
            return Reply.error("ERR database error " + f.getCode() + ": " + f.getMessage());
        }
        return Reply.error("ERR " + cause);
    }

    public static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static String arityError(String name) {
        return "ERR wrong number of arguments for '" + name + "' command";
    }

    /** Redis 7's {@code unknown command '%.128s', with args beginning with: 'a' 'b' }: at most 128 characters of arguments. */
    static String unknownCommand(byte[][] args) {
        StringBuilder list = new StringBuilder();
        for (int i = 1; i < args.length && list.length() < 128; i++) {
            String a = new String(args[i], StandardCharsets.UTF_8);
            list.append('\'').append(a, 0, Math.min(a.length(), 128 - list.length())).append("' ");
        }
        String name = new String(args[0], StandardCharsets.UTF_8);
        return "ERR unknown command '" + name.substring(0, Math.min(name.length(), 128)) + "', with args beginning with: " + list;
    }
}
