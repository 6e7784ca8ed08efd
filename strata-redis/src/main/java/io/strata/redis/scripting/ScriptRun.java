package io.strata.redis.scripting;

import com.apple.foundationdb.Transaction;
import io.strata.redis.acl.Denial;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandExecutor;
import io.strata.redis.command.CommandFlag;
import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Redaction;
import io.strata.redis.command.Replicas;
import io.strata.redis.command.ServerContext;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * One execution of a script: its Lua state (fresh globals, see {@link LuaSandbox}), the
 * transaction every {@code redis.call} runs in, and what SCRIPT KILL and the BUSY check need
 * to know (when it started, whether it wrote, whether it was killed).
 *
 * <p>Runs on one scripting thread, which blocks while a command it called waits for the
 * database; the command's futures complete on the database's threads, never this one, so
 * blocking cannot deadlock. {@link #kill} comes from another thread: {@code killed} and
 * {@code wrote} are volatile.
 *
 * <p>A database failure inside a command (a conflict, a too-old transaction) is no answer a
 * script may catch: it ends the run with {@link AttemptFailed}, which Lua's {@code pcall}
 * does not catch, and fails the attempt, so the transaction is retried and the script runs
 * again from the start, none of its first run having been visible.
 */
public final class ScriptRun {
    /** Ends a run whose transaction attempt failed; an Error so that {@code pcall} lets it through. */
    static final class AttemptFailed extends Error {
        AttemptFailed(Throwable cause) {
            super(cause);
        }
    }

    /** The error a killed script ends with. */
    static final String KILLED = "ERR Script killed by user with SCRIPT KILL...";

    private final ServerContext server;
    /** What errors name: the script's SHA1, or the function's name. */
    private final String name;
    /** Whether it is a function (FCALL), which FUNCTION KILL stops, not SCRIPT KILL. */
    private final boolean function;
    /** The command that runs it, for FUNCTION STATS. */
    private final byte[][] invocationArgs;
    /** System.nanoTime() after which the run counts as killed (FUNCTION LOAD's limit); 0: none. */
    private final long deadlineNanos;
    private final Transaction tr;
    private final ClientSession caller;
    private final ClientSession client;
    private final boolean readOnly;
    private final long startNanos = System.nanoTime();
    private volatile boolean killed;
    private volatile boolean wrote;
    private int resp = 2;

    ScriptRun(ServerContext server, String name, Invocation inv, Transaction tr, boolean readOnly, boolean function) {
        this(server, name, inv, tr, readOnly, function, 0);
    }

    ScriptRun(ServerContext server, String name, Invocation inv, Transaction tr, boolean readOnly, boolean function,
              long deadlineNanos) {
        this.server = server;
        this.name = name;
        this.function = function;
        this.invocationArgs = inv.args();
        this.deadlineNanos = deadlineNanos;
        this.tr = tr;
        this.caller = inv.session();
        this.readOnly = readOnly;
        // Redis's script client: the caller's database and user, RESP2 until redis.setresp.
        // Named "lua" as Redis's script client is, which MONITOR shows.
        this.client = new ClientSession(caller.id(), "lua", caller.localAddress(), server.clock().getAsLong(), true);
        client.authenticate(caller.user());
        client.markScriptClient();
        client.db(caller.db());
        client.protocol(2);
    }

    /** Runs an EVAL script with {@code KEYS} and {@code ARGV}; its reply, an error reply when it failed. */
    Reply execute(Prototype code, List<byte[]> keys, List<byte[]> args) {
        return execute(hook -> new LuaClosure(code, LuaSandbox.create(this, hook, keys, args, null)).call());
    }

    /** Runs {@code body} (given the run's hook, it builds its globals and calls Lua); its reply, or its error as Redis words it. */
    Reply execute(Function<ScriptHook, LuaValue> body) {
        ScriptHook hook = new ScriptHook(this);
        try {
            return LuaReplies.toReply(body.apply(hook), resp);
        } catch (LuaError e) {
            LuaValue error = e.getMessageObject();
            String message = errorMessage(error, hook);
            return LuaReplies.countedAlready(error) ? Reply.countedError(message) : Reply.error(message);
        } catch (StackOverflowError e) {
            return Reply.error(errorMessage(LuaValue.valueOf("stack overflow"), hook));
        }
    }

    /** As {@link #execute(Function)} for FUNCTION LOAD: null when the body ran, else the error's message without a location. */
    String load(Function<ScriptHook, LuaValue> body) {
        ScriptHook hook = new ScriptHook(this);
        try {
            body.apply(hook);
            return null;
        } catch (LuaError e) {
            LuaValue error = e.getMessageObject();
            String err = LuaReplies.errorOf(error);
            return err != null ? err : "ERR " + withPosition(error, hook);
        }
    }

    /**
     * Redis 7.0's words for a script that raised {@code error}: the error table's {@code err}
     * (a command's error, {@code error({err=...})}), else {@code ERR} and the error as text;
     * then {@code script: <sha>, on @user_script:<line>.}
     */
    private String errorMessage(LuaValue error, ScriptHook hook) {
        String location = hook.location();
        String err = LuaReplies.errorOf(error);
        String message = err != null ? err : "ERR " + withPosition(error, hook);
        if (location != null) {
            message += " script: " + name + ", on " + location + ".";
        }
        return LuaReplies.oneLine(message);
    }

    /** A string error's text with Lua's position prefix ({@code user_script:3: }), nil as "nil". */
    private static String withPosition(LuaValue error, ScriptHook hook) {
        String location = hook.location();
        String text = error == null || error.isnil() ? "nil" : error.tojstring();
        if (location != null && error != null && error.type() == LuaValue.TSTRING && location.startsWith("@")) {
            String chunk = location.substring(1, location.lastIndexOf(':') + 1);
            if (!text.startsWith(chunk)) {
                // Raised in a tail call, which luaj runs after leaving the caller's frame (so its
                // error handler did not word it): Lua would still have named the caller's line.
                text = location.substring(1) + ": " + LuaCompat.luaWords(text, hook::nameOfFailedOperand);
            }
        }
        return text;
    }

    /**
     * {@code redis.call}/{@code redis.pcall}: runs a command inside the script's transaction
     * after the checks Redis makes for scripts; an error reply is returned, not thrown.
     */
    Reply call(byte[][] args) {
        Reply reply = answer(args);
        if (reply.isError()) {
            // Counted as the command answers it, refused or run (Redis's scriptCall): the
            // script's own reply, if it passes the error on, does not count it again.
            server.stats().error(((Reply.Error) reply).message());
        }
        return reply;
    }

    private Reply answer(byte[][] args) {
        CommandSpec spec = server.commands().resolve(args);
        if (spec == null) {
            return Reply.error("ERR Unknown Redis command called from script");
        }
        if (!spec.acceptsArgumentCount(args.length)) {
            return rejected(spec, "ERR Wrong number of args calling Redis command from script");
        }
        if (spec.has(CommandFlag.NOSCRIPT)) {
            return rejected(spec, "ERR This Redis command is not allowed from script");
        }
        Denial denied = server.acl().check(client, spec, args);
        if (denied != null) {
            server.acl().record(client, denied, "lua", args);
            return rejected(spec, "ERR The user executing the script " + switch (denied.reason()) {
                case COMMAND -> "can't run this command or subcommand";
                case KEY -> "can't access at least one of the keys mentioned in the command arguments";
                case CHANNEL -> "can't publish to the channel mentioned in the command";
                default -> "lacking the permissions for the command";
            });
        }
        if (readOnly && (spec.isWrite() || spec.has(CommandFlag.MAY_REPLICATE))) {
            // Redis counts may-replicate commands (PUBLISH) as writes here, so that read-only
            // scripts may run during CLIENT PAUSE WRITE.
            return rejected(spec, "ERR Write commands are not allowed from read-only scripts.");
        }
        if (spec.isWrite()) {
            if (spec.has(CommandFlag.DENYOOM) && server.databaseFull()) {
                // Scripts without flags get here; so do those flagged allow-oom, which Redis
                // lets write past maxmemory but a full database refuses anyway.
                return rejected(spec, CommandExecutor.OOM);
            }
            // Reached only by scripts without flags: others were refused before they ran.
            if (Replicas.tooFewForWrites(server.settings())) {
                return rejected(spec, Replicas.NOREPLICAS);
            }
            if (!markWrite()) {
                throw new LuaError(LuaReplies.errorTable(KILLED));
            }
        }
        if (spec.has(CommandFlag.READONLY) && server.tracking().tracksReads(caller)) {
            // Redis: a script that reads tracks the keys it declared, not the ones it read.
            CommandSpec script = server.commands().resolve(invocationArgs);
            server.tracking().remember(caller, server.keys(), CommandExecutor.keysOf(script, invocationArgs));
        }
        Invocation inv = new Invocation(args, client, server, spec);
        long start = System.nanoTime();
        Reply reply;
        try {
            reply = inv.execute(spec.kind() == CommandSpec.Kind.LOCAL ? null : tr).get();
        } catch (ExecutionException e) {
            Throwable cause = CommandExecutor.unwrap(e);
            if (!(cause instanceof RedisException)) {
                throw new AttemptFailed(cause);
            }
            reply = Reply.error(cause.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AttemptFailed(e);
        }
        server.stats().command(spec.name()).called((System.nanoTime() - start) / 1000, reply.isError());
        server.accessClock().ran(server.keys(), client.db(), spec, args, server.clock().getAsLong());
        if (server.monitors().size() > 0 && !spec.has(CommandFlag.SKIP_MONITOR) && !spec.has(CommandFlag.ADMIN)) {
            server.monitors().feed(client, client.db(), Redaction.shown(spec.name(), args), server.clock().getAsLong() * 1000);
        }
        return reply;
    }

    /** A call refused before it ran: counted as the command's rejected call, as Redis's scriptCall counts it. */
    private Reply rejected(CommandSpec spec, String message) {
        server.stats().command(spec.name()).rejectedCalls.increment();
        return Reply.error(message);
    }

    /** {@code redis.acl_check_cmd}: whether the caller's user may run {@code args}; null for an unknown command. */
    Boolean aclAllows(byte[][] args) {
        CommandSpec spec = server.commands().resolve(args);
        if (spec == null) {
            return null;
        }
        return server.acl().check(client, spec, args) == null;
    }

    /** {@code redis.setresp}: the protocol command replies are converted from, and booleans returned in. */
    void resp(int version) {
        resp = version;
        client.protocol(version);
    }

    int resp() {
        return resp;
    }

    String name() {
        return name;
    }

    boolean function() {
        return function;
    }

    byte[][] invocationArgs() {
        return invocationArgs;
    }

    /** SCRIPT KILL: the script stops at its next check; false when it already wrote (UNKILLABLE). */
    synchronized boolean kill() {
        if (wrote) {
            return false;
        }
        killed = true;
        return true;
    }

    /** The server is closing: the script stops at its next check whatever it did (its transaction never commits). */
    void abort() {
        killed = true;
    }

    /** Before a write command: false when the script was killed first (so a killed script never writes). */
    private synchronized boolean markWrite() {
        if (killed) {
            return false;
        }
        wrote = true;
        return true;
    }

    boolean killed() {
        return killed || (deadlineNanos != 0 && System.nanoTime() > deadlineNanos);
    }

    /** The error a stopped run ends with. */
    String killMessage() {
        return deadlineNanos != 0 && !killed ? "ERR FUNCTION LOAD timeout" : KILLED;
    }

    boolean wrote() {
        return wrote;
    }

    /** How long it has run, in milliseconds. */
    long runningMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    ClientSession caller() {
        return caller;
    }
}
