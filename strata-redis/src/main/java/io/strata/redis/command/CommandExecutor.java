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
import java.util.function.Function;

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

    public CommandExecutor(ServerContext server) {
        this.server = server;
    }

    /** Executes one request of {@code session}; the future never fails: errors are error replies. */
    public CompletableFuture<Reply> execute(ClientSession session, byte[][] args) {
        server.stats().commandsProcessed.increment();
        CommandSpec spec = server.commands().lookup(args[0]);
        if (spec == null) {
            return rejected(session, unknownCommand(args));
        }
        session.commandStarted(spec.name(), server.clock().getAsLong());
        if (!spec.acceptsArgumentCount(args.length)) {
            return rejected(session, arityError(spec.name()));
        }
        if (!session.authenticated() && !spec.has(CommandFlag.NO_AUTH)) {
            return rejected(session, "NOAUTH Authentication required.");
        }
        if (session.inMulti() && !MULTI_CONTROL.contains(spec.name())) {
            if (spec.has(CommandFlag.NO_MULTI)) {
                return rejected(session, "ERR Command not allowed inside a transaction");
            }
            session.queue(args);
            return CompletableFuture.completedFuture(Reply.QUEUED);
        }
        Invocation inv = new Invocation(args, session, server, spec);
        CompletableFuture<Reply> result;
        try {
            if (spec.kind() == CommandSpec.Kind.LOCAL || spec.kind() == CommandSpec.Kind.BLOCKING) {
                result = spec.handler().execute(inv, null);
            } else {
                result = runInTransaction(tr -> spec.handler().execute(inv, tr));
            }
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.handle((reply, error) -> error == null ? reply : errorReply(error));
    }

    /**
     * Runs {@code work} in a transaction, retried on conflicts as fdb-java's {@code runAsync}
     * retries it; once it has committed, clients of this process blocked on keys it changed
     * are served before the result is given (Redis answers a push after it has served the
     * clients waiting for it).
     */
    public <T> CompletableFuture<T> runInTransaction(Function<Transaction, CompletableFuture<T>> work) {
        Transaction[] last = new Transaction[1];
        return server.database().runAsync(tr -> {
            last[0] = tr;
            return work.apply(tr);
        }).thenCompose(result -> server.blocked().afterCommit(last[0]).thenApply(ignored -> result));
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
                CompletableFuture<Reply> one;
                try {
                    one = spec.handler().execute(inv, spec.kind() == CommandSpec.Kind.LOCAL ? null : tr);
                } catch (RuntimeException e) {
                    one = CompletableFuture.failedFuture(e);
                }
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

    private CompletableFuture<Reply> rejected(ClientSession session, String message) {
        if (session.inMulti()) {
            session.flagMultiError();
        }
        server.stats().totalErrorReplies.increment();
        return CompletableFuture.completedFuture(Reply.error(message));
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
