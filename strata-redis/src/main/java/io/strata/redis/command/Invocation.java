package io.strata.redis.command;

import io.strata.redis.blocking.BlockingAttempt;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.protocol.ErrorText;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * One request being executed: its arguments (the command name first), the connection that
 * sent it and the server. Parsing helpers answer with Redis's error replies.
 */
public final class Invocation {
    private final byte[][] args;
    private final ClientSession session;
    private final ServerContext server;
    private final CommandSpec spec;
    /** Work the handler started in its transaction that must finish before the command is done. */
    private List<CompletableFuture<?>> pending = new ArrayList<>();
    /** Nanoseconds the tries of a blocking command took ({@link #timing}), -1 before any; guarded by this. */
    private long attemptNanos = -1;
    /** Whether one of those tries answered the command (it was served, not timed out); guarded by this. */
    private boolean attemptAnswered;

    public Invocation(byte[][] args, ClientSession session, ServerContext server, CommandSpec spec) {
        this.args = args;
        this.session = session;
        this.server = server;
        this.spec = spec;
    }

    public byte[][] args() {
        return args;
    }

    public int argc() {
        return args.length;
    }

    public byte[] arg(int i) {
        return args[i];
    }

    public String argString(int i) {
        return new String(args[i], StandardCharsets.UTF_8);
    }

    /**
     * The argument as Redis echoes it in an error ({@code %s}): up to its first NUL, its bytes
     * kept ({@link ErrorText}).
     */
    public String argText(int i) {
        return ErrorText.of(args[i]);
    }

    /** As {@link #argText(int)} for {@code %.<max>s}: at most {@code max} bytes. */
    public String argText(int i, int max) {
        return ErrorText.of(args[i], max);
    }

    /**
     * Redis's {@code addReplySubcommandSyntaxError}: {@code ERR unknown subcommand or wrong
     * number of arguments for '<argument 1, %.128s>'. Try <COMMAND> HELP.}
     */
    public RedisException subcommandSyntaxError() {
        StringBuilder name = new StringBuilder(argText(0));
        for (int c = 0; c < name.length(); c++) {
            char ch = name.charAt(c);
            if (ch >= 'a' && ch <= 'z') {
                name.setCharAt(c, (char) (ch - 32));
            }
        }
        return new RedisException("ERR unknown subcommand or wrong number of arguments for '" + argText(1, 128)
                + "'. Try " + name + " HELP.");
    }

    /** The argument in upper case, for matching option words. */
    public String option(int i) {
        return argString(i).toUpperCase(Locale.ROOT);
    }

    public ClientSession session() {
        return session;
    }

    public ServerContext server() {
        return server;
    }

    public CommandSpec spec() {
        return spec;
    }

    /** The selected database of the connection. */
    public int db() {
        return session.db();
    }

    /** The server's clock, in Unix milliseconds. */
    public long now() {
        return server.clock().getAsLong();
    }

    /** The argument as Redis's {@code getLongLongFromObject}: a decimal {@code long}, else {@code ERR value is not an integer or out of range}. */
    public long longArg(int i) {
        return Numbers.parseLong(args[i], RedisException.NOT_INTEGER);
    }

    /** As {@link #longArg} with another error message. */
    public long longArg(int i, String error) {
        return Numbers.parseLong(args[i], error);
    }

    /**
     * Publishes keyspace event {@code event} of class {@code type} (a
     * {@code NotifyKeyspaceEvents} bit) for {@code key} of the selected database, in the
     * command's transaction; does nothing when that class is off.
     */
    public void keyspaceEvent(com.apple.foundationdb.Transaction tr, int type, String event, byte[] key) {
        if (type != NotifyKeyspaceEvents.KEY_MISS) {
            server.stats().changes.count(tr);
        }
        server.keys().events().publish(tr, type, event, db(), key);
    }

    public double doubleArg(int i) {
        return Numbers.parseDouble(args[i], RedisException.NOT_FLOAT);
    }

    /**
     * Has the command wait for {@code work} — a write the handler started inside its transaction
     * without chaining it into its reply (e.g. a large value's chunks) — before it counts as
     * done: the next command of the batch and the commit come after it, and its failure is the
     * command's failure.
     */
    public void await(CompletableFuture<?> work) {
        synchronized (this) {
            pending.add(work);
        }
    }

    /**
     * Runs the handler for one attempt (a retry is a new attempt: work of a failed one is
     * forgotten) and completes when it and everything it {@link #await}ed are done.
     */
    public CompletableFuture<Reply> execute(com.apple.foundationdb.Transaction tr) {
        synchronized (this) {
            pending = new ArrayList<>();
        }
        if (tr != null && !session.scriptClient()) {
            // Its changes are this connection's (a script's calls count as its caller's).
            server.tracking().running(tr, session);
        }
        CompletableFuture<Reply> reply;
        try {
            reply = spec.handler().execute(this, tr);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return reply.thenCompose(r -> {
            List<CompletableFuture<?>> work;
            synchronized (this) {
                work = pending;
            }
            if (work.isEmpty()) {
                return CompletableFuture.completedFuture(r);
            }
            return CompletableFuture.allOf(work.toArray(new CompletableFuture[0])).thenApply(ignored -> r);
        });
    }

    /**
     * {@code attempt}, counting the time its tries take as this command's duration — the time
     * it waited in between does not count, as Redis counts a blocked command's duration — and
     * whether a try answered it.
     */
    public BlockingAttempt timing(BlockingAttempt attempt) {
        return new BlockingAttempt() {
            @Override
            public CompletableFuture<Reply> attempt(com.apple.foundationdb.Transaction tr, boolean first,
                                                    java.util.function.Predicate<byte[]> waitedOn) {
                long start = System.nanoTime();
                if (tr != null) {
                    server.tracking().running(tr, session);
                }
                CompletableFuture<Reply> tried;
                try {
                    tried = attempt.attempt(tr, first, waitedOn);
                } catch (RuntimeException e) {
                    tried(start, false);
                    throw e;
                }
                return tried.whenComplete((reply, error) -> tried(start, reply != null));
            }

            @Override
            public boolean othersMayBeServed() {
                return attempt.othersMayBeServed();
            }
        };
    }

    private synchronized void tried(long startNanos, boolean answered) {
        attemptNanos = Math.max(0, attemptNanos) + (System.nanoTime() - startNanos);
        attemptAnswered |= answered;
    }

    /** Microseconds the tries of a blocking command took, or -1 when it made none through {@link #timing}. */
    public synchronized long attemptMicros() {
        return attemptNanos < 0 ? -1 : attemptNanos / 1000;
    }

    /** Whether a try made through {@link #timing} answered the command. */
    public synchronized boolean attemptAnswered() {
        return attemptAnswered;
    }

    public static CompletableFuture<Reply> done(Reply reply) {
        return CompletableFuture.completedFuture(reply);
    }
}
