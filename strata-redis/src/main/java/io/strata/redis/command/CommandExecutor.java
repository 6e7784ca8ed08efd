package io.strata.redis.command;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.redis.acl.Denial;
import io.strata.redis.protocol.ErrorText;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * Runs requests: finds the command (or subcommand), checks what Redis checks before running
 * one (in Redis's order: unknown command or subcommand, arity, protected commands,
 * authentication, commands refused inside MULTI, ACL permissions, the pub/sub context, MULTI
 * queueing), then runs it — a data command in its lane's transaction ({@link CommandLanes}),
 * retried on conflicts, so every command is atomic and sees a consistent snapshot.
 *
 * <p>After a command has its reply, the executor accounts for it as Redis's {@code call()}
 * does: command and error statistics, the slow log, and the MONITOR feed; a command refused
 * before running counts as a rejected call. The commands EXEC ran count one by one, after
 * EXEC's transaction committed (never for an attempt that was retried).
 *
 * <p>The ACL check is here, once for every request: it asks the server's {@code AccessControl}
 * with the user's compiled permissions (a map lookup, nothing at all for a user allowed
 * everything); a request the ACL denies never runs as data, so it meets the check in
 * {@link #prepare}. EXEC asks again for each queued command ({@link #recheckQueued}), since the
 * rules may have changed after it was queued.
 */
public final class CommandExecutor {
    /** What may run while MULTI is open instead of being queued. */
    private static final Set<String> MULTI_CONTROL = Set.of("exec", "discard", "multi", "watch", "quit", "reset");

    /** What a RESP2 connection subscribed to anything may run (Redis's pub/sub context). */
    private static final Set<String> PUBSUB_CONTEXT = Set.of("ping", "subscribe", "ssubscribe", "psubscribe",
            "unsubscribe", "sunsubscribe", "punsubscribe", "quit", "reset");
    /** Redis 7.0's container commands, named {@code container|subcommand} in errors. */
    private static final Set<String> CONTAINERS = Set.of("acl", "client", "cluster", "command", "config", "function",
            "latency", "memory", "module", "object", "pubsub", "script", "slowlog", "xgroup", "xinfo");

    private final ServerContext server;
    private final CommandLanes lanes;
    private final ValueStaging staging;
    /** How long each command of a session's EXEC ran, in its last attempt; taken when EXEC completes. */
    private final Map<Long, long[]> execDurations = new ConcurrentHashMap<>();

    public CommandExecutor(ServerContext server) {
        this.server = server;
        this.lanes = new CommandLanes(server, this);
        this.staging = new ValueStaging(server::commands);
    }

    /**
     * A request after Redis's checks: either its reply is already known (an error, QUEUED inside
     * MULTI), or it is ready to run ({@link #invocation}).
     */
    public static final class Prepared {
        private final Reply immediate;
        private final Invocation invocation;
        private final long startMillis;
        private final byte[][] heldArgs;
        private final CompletableFuture<Void> heldUntil;

        private Prepared(Reply immediate, Invocation invocation, long startMillis) {
            this(immediate, invocation, startMillis, null, null);
        }

        private Prepared(Reply immediate, Invocation invocation, long startMillis, byte[][] heldArgs,
                         CompletableFuture<Void> heldUntil) {
            this.immediate = immediate;
            this.invocation = invocation;
            this.startMillis = startMillis;
            this.heldArgs = heldArgs;
            this.heldUntil = heldUntil;
        }

        /**
         * When the request is held by CLIENT PAUSE: completes when the pause ends, and the
         * request ({@link #heldArgs}) is then to be prepared again (its checks made anew, as
         * Redis processes a postponed command again). Null for a request not held.
         */
        public CompletableFuture<Void> heldUntil() {
            return heldUntil;
        }

        /** The held request's arguments. */
        public byte[][] heldArgs() {
            return heldArgs;
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

        /**
         * Whether a connection may gather it into a run of data requests answered together:
         * a data command that passed every check, neither blocking nor protected (a connection prepares
         * each request once and stops a run at the first that cannot join).
         */
        public boolean joinsDataRun() {
            return isData() && !invocation.spec().has(CommandFlag.BLOCKING) && !invocation.spec().has(CommandFlag.PROTECTED);
        }
    }

    /**
     * Applies Redis's checks, in Redis's order ({@code processCommand}): unknown command or
     * subcommand, arity, protected, authentication, commands refused inside MULTI, ACL
     * permissions, writes without enough replicas ({@link Replicas}), the RESP2 pub/sub
     * context, MULTI queueing.
     */
    public Prepared prepare(ClientSession session, byte[][] args) {
        CommandSpec spec = server.commands().resolve(args);
        if (spec == null) {
            return new Prepared(rejected(session, null, server.commands().unknownError(args)), null, 0);
        }
        long startMillis = server.clock().getAsLong();
        session.commandStarted(spec.name(), startMillis);
        if (!spec.acceptsArgumentCount(args.length)) {
            return new Prepared(rejected(session, spec, arityError(spec.name())), null, 0);
        }
        if (spec.has(CommandFlag.PROTECTED) && !server.settings().debugAllowed(isLocal(session))) {
            return new Prepared(rejected(session, spec, protectedError(spec.name())), null, 0);
        }
        if (server.acl().authRequired(session) && !spec.has(CommandFlag.NO_AUTH)) {
            return new Prepared(rejected(session, spec, "NOAUTH Authentication required."), null, 0);
        }
        if (session.inMulti() && spec.has(CommandFlag.NO_MULTI) && !MULTI_CONTROL.contains(spec.name())) {
            return new Prepared(rejected(session, spec, "ERR Command not allowed inside a transaction"), null, 0);
        }
        Denial denied = server.acl().check(session, spec, args);
        if (denied != null) {
            server.acl().record(session, denied, session.inMulti() ? "multi" : "toplevel", args);
            return new Prepared(rejected(session, spec, denied.errorMessage()), null, 0);
        }
        // Redis's performEvictions, before any command while the data is past maxmemory: the
        // request waits for a round of evictions (so that their invalidations and events come
        // before its reply), then is prepared again.
        boolean evictionFailed = session.takeEvictionFailed();
        CompletableFuture<Boolean> room = evictionFailed ? null : server.makeRoom();
        if (room != null) {
            return new Prepared(null, null, 0, args, room.handle((enough, failure) -> {
                if (failure != null || !enough) {
                    session.evictionFailed();
                }
                return null;
            }));
        }
        if (deniesOom(session, spec) && (evictionFailed || server.databaseFull())) {
            return new Prepared(rejected(session, spec, OOM), null, 0);
        }
        boolean mayWrite = mayWrite(session, spec, args);
        if (Replicas.tooFewForWrites(server.settings()) && writes(session, spec)) {
            return new Prepared(rejected(session, spec, Replicas.NOREPLICAS), null, 0);
        }
        if (session.subscribed() && session.protocol() == 2 && !PUBSUB_CONTEXT.contains(spec.name())) {
            return new Prepared(rejected(session, spec, "ERR Can't execute '" + fullName(spec, args)
                    + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"), null, 0);
        }
        String busy = spec.has(CommandFlag.ALLOW_BUSY) ? null : server.scripts().busy(session);
        if (busy != null) {
            return new Prepared(rejected(session, spec, busy), null, 0);
        }
        CompletableFuture<Void> paused = server.pause().hold(mayWrite);
        if (paused != null) {
            return new Prepared(null, null, 0, args, paused);
        }
        if (session.inMulti() && !MULTI_CONTROL.contains(spec.name())) {
            session.queue(args);
            return new Prepared(Reply.QUEUED, null, 0);
        }
        track(session, spec, args);
        return new Prepared(null, new Invocation(args, session, server.forSession(session), spec), startMillis);
    }

    /** Read-only commands whose keys are not remembered for client-side caching: Redis tracks what their scripts read. */
    private static final Set<String> SCRIPTS_TRACK_THEMSELVES = Set.of("eval_ro", "evalsha_ro", "fcall_ro");

    /**
     * Client-side caching for a request about to run: the keys it will read are remembered
     * for its connection now, before its transaction reads them (an EXEC's queued reads
     * likewise), so that no change committed after the read goes unannounced; then a
     * {@code CLIENT CACHING} given before it has been used up. Also keeps the tracking table
     * within {@code tracking-table-max-keys}, as Redis's {@code processCommand} does.
     */
    private void track(ClientSession session, CommandSpec spec, byte[][] args) {
        io.strata.redis.tracking.ClientTracking tracking = server.tracking();
        if (!tracking.tracking(session)) {
            return;
        }
        tracking.limit(server.settings().getLong("tracking-table-max-keys"));
        if (tracking.tracksReads(session)) {
            Object space = server.forSession(session).keys();
            if (spec.name().equals("exec") && session.inMulti()) {
                for (byte[][] queued : session.queued()) {
                    CommandSpec q = server.commands().resolve(queued);
                    if (q != null) {
                        rememberReads(tracking, session, space, q, queued);
                    }
                }
            } else {
                rememberReads(tracking, session, space, spec, args);
            }
        }
        if (!spec.name().startsWith("client|")) {
            tracking.commandDone(session);
        }
    }

    private static void rememberReads(io.strata.redis.tracking.ClientTracking tracking, ClientSession session, Object space,
                                      CommandSpec spec, byte[][] args) {
        if (!spec.has(CommandFlag.READONLY) || spec.has(CommandFlag.PUBSUB) || SCRIPTS_TRACK_THEMSELVES.contains(spec.name())) {
            return;
        }
        tracking.remember(session, space, keysOf(spec, args));
    }

    /** The key names of a request, as COMMAND GETKEYS finds them. */
    public static List<byte[]> keysOf(CommandSpec spec, byte[][] args) {
        List<byte[]> keys = new ArrayList<>();
        for (KeySpecs.KeyRef k : KeySpecs.keys(spec, args)) {
            keys.add(args[k.position()]);
        }
        return keys;
    }

    /**
     * Runs a prepared request on its own: a data one in its lane, a local one here, a
     * {@link CommandSpec.Kind#BLOCKING} one (BLPOP ...) through its own wait, never in a lane.
     */
    public CompletableFuture<Reply> run(Prepared p) {
        Invocation inv = p.invocation();
        ClientSession session = inv.session();
        CommandSpec spec = inv.spec();
        List<byte[][]> transaction = spec.name().equals("exec") && session.inMulti() ? session.queued() : null;
        long startNanos = System.nanoTime();
        CompletableFuture<Reply> result;
        if (spec.kind() == CommandSpec.Kind.DATA && !spec.has(CommandFlag.BLOCKING)) {
            result = staging.around(inv.server(), List.<byte[][]>of(inv.args()), inv.db(), () -> {
                CommandLanes.Unit unit = new CommandLanes.Unit(List.of(inv));
                lanes.submit(unit);
                return unit.replies().thenApply(r -> r.get(0));
            });
        } else if (transaction != null) {
            result = staging.around(inv.server(), transaction, session.db(), () -> inv.execute(null));
        } else {
            try {
                // A BLOCKING command runs its own transactions while it waits (tr is null).
                result = spec.kind() == CommandSpec.Kind.DATA ? runInTransaction(inv::execute) : inv.execute(null);
            } catch (RuntimeException e) {
                result = CompletableFuture.failedFuture(e);
            }
        }
        return result.handle((reply, error) -> {
            Reply r = error == null ? reply : errorReply(error);
            long micros = (System.nanoTime() - startNanos) / 1000;
            // A blocking command counts the time its tries took, not its wait, and is slow-logged
            // and accesses its keys when served (or failed), not when it began waiting or timed
            // out: Redis's updateStatsOnUnblock.
            boolean blocked = inv.attemptMicros() >= 0;
            account(session, spec, inv.args(), blocked ? server.clock().getAsLong() : p.startMillis,
                    blocked ? inv.attemptMicros() : micros, r, !blocked || inv.attemptAnswered() || r.isError());
            return r;
        });
    }

    /**
     * Runs a connection's run of data requests, in order, in a lane — or, for a run of fast reads
     * ({@link FastReads}), in a transaction of its own on the calling thread; one reply per
     * request. Each is accounted with an equal share of the unit's time (they ran in one
     * transaction).
     */
    public CompletableFuture<List<Reply>> runData(List<Prepared> requests) {
        List<Invocation> invocations = new ArrayList<>(requests.size());
        for (Prepared p : requests) {
            invocations.add(p.invocation());
        }
        List<byte[][]> args = new ArrayList<>(requests.size());
        for (Invocation inv : invocations) {
            args.add(inv.args());
        }
        long startNanos = System.nanoTime();
        return staging.around(invocations.get(0).server(), args, invocations.get(0).db(), () -> {
            CommandLanes.Unit unit = new CommandLanes.Unit(invocations);
            if (FastReads.runHere(server, invocations)) {
                return lanes.runHere(unit);
            }
            lanes.submit(unit);
            return unit.replies();
        }).thenApply(replies -> {
            long share = (System.nanoTime() - startNanos) / 1000 / Math.max(1, replies.size());
            accountUnit(requests, share, replies);
            return replies;
        });
    }

    /** Executes one request of {@code session}; the future never fails: errors are error replies. */
    public CompletableFuture<Reply> execute(ClientSession session, byte[][] args) {
        Prepared p = prepare(session, args);
        if (p.heldUntil() != null) {
            return p.heldUntil().thenCompose(ignored -> execute(session, args));
        }
        return p.immediate() != null ? CompletableFuture.completedFuture(p.immediate()) : run(p);
    }

    /**
     * {@link #runInTransaction} on the calling thread, which blocks until the transaction has
     * committed and the clients it served have been answered ({@code db.run}: on the embedded
     * engine a caller that blocks may run its commit itself). For lane threads, and for an
     * event loop running a lane's batch ({@code LoopBatches}).
     */
    public <T> T runInTransactionBlocking(Function<Transaction, CompletableFuture<T>> work) {
        return runInTransactionBlocking(work, attempts -> { });
    }

    /** FoundationDB's MVCC window: a transaction's reads fail with transaction_too_old past it. */
    private static final long MVCC_WINDOW_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
    /** Attempts that ran past the window, after which a blocking run gives up instead of retrying. */
    private static final int GIVE_UP_AFTER_OUTLIVED = 2;
    static final String TOO_LONG = "ERR database error 1007: Transaction is too old to perform reads or be committed"
            + " (the command needs longer than FoundationDB's 5-second transaction limit)";

    /**
     * {@link #runInTransactionBlocking(Function)}, calling {@code ended} with the number of
     * attempts once the transaction has committed or failed for good, before the clients it
     * unblocked are served: a lane releases its lanes there ({@link LaneLocks}), so that it
     * never waits on them holding one, and learns whether it had to retry.
     *
     * <p>A command that needs longer than the 5 s MVCC window fails with transaction_too_old
     * on every attempt, which fdb-java's {@code run} retries for ever — and a lane thread would
     * run it for ever, holding up every command of its lane. After two attempts that each ran
     * past the window, the run gives up with the 1007 error as an error reply ({@link #TOO_LONG}),
     * as FoundationDB's limits are reported elsewhere; a lane then reruns its batch a unit at a
     * time, so only the command that is too long fails.
     */
    public <T> T runInTransactionBlocking(Function<Transaction, CompletableFuture<T>> work, IntConsumer ended) {
        Transaction[] last = new Transaction[1];
        int[] attempts = {0};
        long[] attemptStarted = {0};
        int[] outlived = {0};
        ChangeCounter changes = server.stats().changes;
        T result;
        try {
            result = server.database().run(tr -> {
                if (last[0] != null) {
                    changes.abandoned(last[0]);
                }
                long now = System.nanoTime();
                if (attempts[0] > 0 && now - attemptStarted[0] >= MVCC_WINDOW_NANOS && ++outlived[0] >= GIVE_UP_AFTER_OUTLIVED) {
                    // fdb-java's run would retry transaction_too_old for ever, and the lane with it.
                    throw new RedisException(TOO_LONG);
                }
                attemptStarted[0] = now;
                last[0] = tr;
                attempts[0]++;
                changes.begin(tr);
                return work.apply(tr).join();
            });
        } catch (RuntimeException e) {
            ended.accept(attempts[0]);
            changes.abandoned(last[0]);
            throw e;
        }
        ended.accept(attempts[0]);
        changes.committed(last[0]);
        server.afterCommit(last[0]).join();
        return result;
    }

    /**
     * Runs {@code work} in a transaction, retried on conflicts as fdb-java's {@code runAsync}
     * retries it; once it has committed, clients of this process blocked on keys it changed
     * are served before the result is given (Redis answers a push after it has served the
     * clients waiting for it).
     */
    public <T> CompletableFuture<T> runInTransaction(Function<Transaction, CompletableFuture<T>> work) {
        return runInTransaction(work, result -> { });
    }

    /**
     * {@link #runInTransaction(Function)}, calling {@code committed} with the result once the
     * transaction has committed and before clients blocked on the keys it changed are served
     * (EXEC accounts its commands there, so that they come before what they unblock, as in
     * Redis, where a blocked client is served after the command that fed it returns).
     */
    public <T> CompletableFuture<T> runInTransaction(Function<Transaction, CompletableFuture<T>> work, Consumer<T> committed) {
        Transaction[] last = new Transaction[1];
        ChangeCounter changes = server.stats().changes;
        return server.database().runAsync(tr -> {
            if (last[0] != null) {
                changes.abandoned(last[0]);
            }
            last[0] = tr;
            changes.begin(tr);
            return work.apply(tr);
        }).whenComplete((result, failure) -> {
            if (failure == null) {
                changes.committed(last[0]);
            } else {
                changes.abandoned(last[0]);
            }
        }).thenCompose(result -> {
            committed.accept(result);
            return server.afterCommit(last[0]).thenApply(ignored -> result);
        });
    }

    /**
     * Runs queued requests one after another inside {@code tr} (EXEC): a command's error
     * becomes its reply and the others still run, as in Redis; a database error (a conflict)
     * fails the whole attempt so the caller retries it.
     */
    public CompletableFuture<List<Reply>> executeAll(ClientSession session, List<byte[][]> requests, Transaction tr) {
        return executeAll(session, requests, null, tr);
    }

    /**
     * Checks queued requests against the ACL again, as EXEC does before running them (the rules
     * may have changed since they were queued): per request, null when it may run, else its
     * NOPERM reply. Denials are logged once, here, not on every retry of EXEC's transaction.
     */
    public List<Reply> recheckQueued(ClientSession session, List<byte[][]> requests) {
        List<Reply> denials = new ArrayList<>(requests.size());
        for (byte[][] args : requests) {
            CommandSpec spec = server.commands().resolve(args);
            Denial d = spec == null ? null : server.acl().check(session, spec, args);
            if (d != null) {
                server.acl().record(session, d, "multi", args);
            }
            denials.add(d == null ? null : Reply.error(d.execMessage()));
        }
        return denials;
    }

    /**
     * As {@link #executeAll(ClientSession, List, Transaction)}, answering {@code denials}'
     * non-null entries instead of running those requests.
     */
    public CompletableFuture<List<Reply>> executeAll(ClientSession session, List<byte[][]> requests, List<Reply> denials,
                                                     Transaction tr) {
        List<Reply> replies = new ArrayList<>(requests.size());
        long[] durations = new long[requests.size()];
        execDurations.put(session.id(), durations);
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (int i = 0; i < requests.size(); i++) {
            byte[][] args = requests.get(i);
            int index = i;
            Reply denied = denials == null ? null : denials.get(i);
            chain = chain.thenCompose(ignored -> {
                if (denied != null) {
                    replies.add(denied);
                    return CompletableFuture.completedFuture(null);
                }
                CommandSpec spec = server.commands().resolve(args);
                Invocation inv = new Invocation(args, session, server.forSession(session), spec);
                long start = System.nanoTime();
                CompletableFuture<Reply> one = inv.execute(spec.kind() == CommandSpec.Kind.LOCAL ? null : tr);
                return one.handle((reply, error) -> {
                    durations[index] = (System.nanoTime() - start) / 1000;
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
        CommandSpec spec = server.commands().resolve(args);
        if (spec == null) {
            return server.commands().unknownError(args);
        }
        if (!spec.acceptsArgumentCount(args.length)) {
            return arityError(spec.name());
        }
        return null;
    }

    /**
     * Redis's {@code is_denyoom_command}: a command flagged {@code denyoom}, or EXEC of a
     * transaction that queued one — refused while the database is full.
     */
    private boolean deniesOom(ClientSession session, CommandSpec spec) {
        return spec.has(CommandFlag.DENYOOM) || execHolds(session, spec, q -> q.has(CommandFlag.DENYOOM));
    }

    /** Whether {@code spec} is EXEC of a transaction that queued a command {@code test} accepts. */
    private boolean execHolds(ClientSession session, CommandSpec spec, java.util.function.Predicate<CommandSpec> test) {
        if (!spec.name().equals("exec") || !session.inMulti()) {
            return false;
        }
        for (byte[][] queued : session.queued()) {
            CommandSpec q = server.commands().resolve(queued);
            if (q != null && test.test(q)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the request writes, as Redis's {@code processCommand} decides it: a command
     * flagged {@code write}, or EXEC of a transaction that queued one.
     */
    private boolean writes(ClientSession session, CommandSpec spec) {
        return spec.isWrite() || execHolds(session, spec, CommandSpec::isWrite);
    }

    /**
     * Whether CLIENT PAUSE WRITE holds the request, as Redis's {@code is_may_replicate_command}:
     * a command flagged {@code write} or {@code may_replicate}, or EXEC of a transaction that
     * queued one. A script counts by its own flags ({@code evalGetCommandFlags}): EVAL and EVALSHA
     * of a script declaring {@code no-writes} do not write; FCALL is decided when its function is
     * found, inside the call ({@code Functions}), so it is never held here.
     */
    private boolean mayWrite(ClientSession session, CommandSpec spec, byte[][] args) {
        if (spec.name().equals("exec") && session.inMulti()) {
            for (byte[][] queued : session.queued()) {
                CommandSpec q = server.commands().resolve(queued);
                if (q != null && mayWrite(q, queued)) {
                    return true;
                }
            }
            return false;
        }
        return mayWrite(spec, args);
    }

    private boolean mayWrite(CommandSpec spec, byte[][] args) {
        if (!spec.has(CommandFlag.MAY_REPLICATE)) {
            return spec.isWrite(); // the scripts below are flagged may_replicate
        }
        switch (spec.name()) {
            case "eval":
                try {
                    return !io.strata.redis.scripting.ScriptFlags.of(args[1]).noWrites();
                } catch (RedisException e) {
                    return false; // a bad shebang: the command answers its error at once
                }
            case "evalsha":
                io.strata.redis.scripting.CompiledScript script = server.scripts().cache()
                        .get(new String(args[1], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT));
                return script == null || !script.flags().noWrites();
            case "fcall":
                return false;
            default:
                return spec.isWrite() || spec.has(CommandFlag.MAY_REPLICATE);
        }
    }

    /**
     * Refuses a request as Redis's {@code rejectCommand} does: inside MULTI the transaction is
     * flagged to fail; a refused EXEC — whether or not MULTI was called — discards the
     * transaction and its WATCHes and says why after {@code EXECABORT} ({@code execCommandAbort};
     * a reason Redis words without an error code, such as the arity error, loses its "ERR").
     */
    private Reply rejected(ClientSession session, CommandSpec spec, String message) {
        if (spec != null && spec.name().equals("exec")) {
            if (session.inMulti()) {
                session.endMulti();
            }
            session.unwatchAll();
            message = "EXECABORT Transaction discarded because of: " + (message.startsWith("ERR ") ? message.substring(4) : message);
        } else if (session.inMulti()) {
            session.flagMultiError();
        }
        if (spec != null) {
            server.stats().command(spec.name()).rejectedCalls.increment();
        }
        server.stats().error(message);
        return Reply.error(message);
    }

    /** Counts a command that ran, and logs it to the slow log and the monitors. */
    private void account(ClientSession session, CommandSpec spec, byte[][] args, long startMillis, long micros, Reply reply) {
        account(session, spec, args, startMillis, micros, reply, true);
    }

    private void account(ClientSession session, CommandSpec spec, byte[][] args, long startMillis, long micros, Reply reply,
                         boolean slowLoggable) {
        server.stats().commandsProcessed.increment();
        server.stats().command(spec.name()).called(micros, reply.isError());
        observe(session, spec, args, startMillis, micros, reply, slowLoggable);
    }

    /**
     * Accounts a unit's requests as {@link #account} does, each {@code micros} long, with one
     * update of a command's counters for each run of requests of that command (a pipeline of
     * SADDs): the counters are shared by every thread, a request's own work is not.
     */
    private void accountUnit(List<Prepared> requests, long micros, List<Reply> replies) {
        ServerStats stats = server.stats();
        stats.commandsProcessed.add(requests.size());
        int i = 0;
        while (i < requests.size()) {
            CommandSpec spec = requests.get(i).invocation().spec();
            int failed = 0;
            int j = i;
            for (; j < requests.size() && requests.get(j).invocation().spec() == spec; j++) {
                Invocation inv = requests.get(j).invocation();
                Reply reply = replies.get(j);
                if (reply.isError()) {
                    failed++;
                }
                observe(inv.session(), spec, inv.args(), requests.get(j).startMillis, micros, reply, true);
            }
            stats.command(spec.name()).called(micros, j - i, failed);
            i = j;
        }
    }

    /** What a request that ran leaves besides the counters: error stats, access times, the slow log, monitors. */
    private void observe(ClientSession session, CommandSpec spec, byte[][] args, long startMillis, long micros, Reply reply,
                         boolean slowLoggable) {
        ServerStats stats = server.stats();
        if (reply.isError() && !((Reply.Error) reply).counted()) {
            stats.error(((Reply.Error) reply).message());
        }
        recordAccess(session, spec, args, startMillis);
        long threshold = server.settings().latencyMonitorThreshold();
        if (threshold > 0 && micros / 1000 >= threshold) {
            // Redis's call(): the sample is taken when the command ends.
            server.latency().record(spec.has(CommandFlag.FAST) ? "fast-command" : "command", micros / 1000, threshold,
                    server.clock().getAsLong() / 1000);
        }
        long slowerThan = server.settings().slowlogSlowerThan();
        if (slowLoggable && SlowLog.logs(micros, slowerThan) && !spec.has(CommandFlag.SKIP_SLOWLOG)) {
            server.slowlog().record(Redaction.shown(spec.name(), args), startMillis / 1000, micros, session.address(),
                    session.name(), slowerThan, server.settings().slowlogMaxLength());
        }
        if (server.monitors().size() > 0 && !spec.has(CommandFlag.SKIP_MONITOR) && !spec.has(CommandFlag.ADMIN)) {
            server.monitors().feed(session, session.db(), Redaction.shown(spec.name(), args), server.clock().getAsLong() * 1000);
        }
    }

    /**
     * OBJECT IDLETIME's clock: the keys a command named were accessed when it started (unless
     * it looks keys up without touching them); the clock counts whole seconds.
     */
    private void recordAccess(ClientSession session, CommandSpec spec, byte[][] args, long startMillis) {
        server.accessClock().ran(server.forSession(session).keys(), session.db(), spec, args, startMillis);
    }

    /**
     * Counts the commands an EXEC ran (its reply is their replies); EXEC calls it once its
     * transaction has committed, before the clients it unblocked are served.
     */
    public void accountTransaction(ClientSession session, List<byte[][]> queued, Reply execReply) {
        long[] durations = execDurations.remove(session.id());
        if (!(execReply instanceof Reply.Array) || ((Reply.Array) execReply).items().size() != queued.size()) {
            return;
        }
        List<Reply> replies = ((Reply.Array) execReply).items();
        long now = server.clock().getAsLong();
        for (int i = 0; i < queued.size(); i++) {
            CommandSpec spec = server.commands().resolve(queued.get(i));
            if (spec != null) {
                account(session, spec, queued.get(i), now, durations == null ? 0 : durations[i], replies.get(i));
            }
        }
    }

    /** FoundationDB's {@code storage_quota_exceeded}: the database (or tenant) is full. */
    static final int STORAGE_QUOTA_EXCEEDED = 1225;
    /** Redis's {@code shared.oomerr}. */
    public static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";

    /** The error reply for a failure: Redis's words for ours, FoundationDB's code for the database's. */
    public Reply errorReply(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof RedisException) {
            return Reply.error(cause.getMessage());
        }
        if (cause instanceof FDBException) {
            FDBException f = (FDBException) cause;
            if (f.getCode() == STORAGE_QUOTA_EXCEEDED) {
                // The database refuses writes while it is full (on Strata's engine: past its
                // memory limit), as Redis past maxmemory does under noeviction.
                return Reply.error(OOM);
            }
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

    /** Whether a client connects over the loopback interface (for {@code local} protected settings). */
    public static boolean isLocal(ClientSession session) {
        String a = session.address();
        return a.startsWith("127.") || a.startsWith("0:0:0:0:0:0:0:1") || a.startsWith("::1") || a.startsWith("[::1]");
    }

    /** The name Redis prints for a command: {@code client|list} for a subcommand. */
    static String fullName(CommandSpec spec, byte[][] args) {
        if (CONTAINERS.contains(spec.name()) && args.length > 1) {
            return spec.name() + "|" + new String(args[1], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        }
        return spec.name();
    }

    static String arityError(String name) {
        return "ERR wrong number of arguments for '" + name + "' command";
    }

    private static String protectedError(String name) {
        String command = name.toUpperCase(java.util.Locale.ROOT);
        String option = name.equals("debug") ? "enable-debug-command" : "enable-module-command";
        return "ERR " + command + " command not allowed. If the " + option + " option is set to \"local\", you can run it "
                + "from a local connection, otherwise you need to set this option in the configuration file, and then "
                + "restart the server.";
    }

    /**
     * Redis 7's {@code unknown command '%.128s', with args beginning with: 'a' 'b' }, as
     * {@code commandCheckExistence} prints it: each argument's bytes up to a NUL, the name at
     * most 128 bytes and the arguments together at most 128 (newlines become spaces when sent).
     */
    static String unknownCommand(byte[][] args) {
        StringBuilder list = new StringBuilder();
        for (int i = 1; i < args.length && list.length() < 128; i++) {
            int precision = 128 - list.length(); // '%.*s' with the length before this argument's quote
            list.append('\'').append(ErrorText.of(args[i], precision)).append("' ");
        }
        String message = "ERR unknown command '" + ErrorText.of(args[0], 128) + "', with args beginning with: " + list;
        String note = UnsupportedFeatures.noteFor(new String(args[0], StandardCharsets.UTF_8));
        return note == null ? message : message + "(" + note + ")";
    }
}
