package io.strata.redis.scripting;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.ServerContext;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server's scripting: the script cache, the scripting threads, and the runs in progress,
 * which the BUSY check and SCRIPT KILL look at.
 *
 * <h2>Atomicity</h2>
 * A script runs inside one database transaction: EXEC's when it is queued in MULTI, else one
 * of its own ({@code CommandExecutor.runInTransaction}, retried on conflicts). Every
 * {@code redis.call} runs in that transaction, so the script reads its own writes, others see
 * all of them or none, and two scripts that touch the same keys are serializable. A retried
 * attempt runs the script again from the start. As in Redis, an error raised after a write
 * does not undo the write (the error is the reply and the transaction commits); a killed
 * script has written nothing, so nothing commits.
 *
 * <h2>Threads</h2>
 * Scripts run on a pool of daemon threads, never on Netty's event loops, because a script
 * blocks while its commands wait for the database. Scripts of different clients may run at
 * the same time (unlike Redis): their transactions keep them apart. Scripts whose first key
 * falls in the same stripe run one after another (a chain of futures per stripe, guarded by
 * the stripes array's monitor), so a hot key is not fought over by retrying transactions;
 * a script only ever waits for the one started before it, so the chains cannot deadlock. The set of runs in
 * progress is a concurrent set; {@link #busy} reads it on every request, which costs a
 * volatile read when no script runs.
 */
public final class Scripts implements AutoCloseable {
    /** FoundationDB's limit on a transaction's life: a script attempt that ran longer cannot commit. */
    static final long TRANSACTION_LIMIT_MILLIS = 5000;
    private static final int STRIPES = 64;

    public static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";

    private final ServerContext server;
    private final ScriptCache cache = new ScriptCache();
    private final Set<ScriptRun> running = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads;
    /** Per stripe of first keys, the last script started: the next one on the stripe starts after it. */
    private final CompletableFuture<?>[] stripes = new CompletableFuture<?>[STRIPES];

    public Scripts(ServerContext server) {
        this.server = server;
        AtomicInteger n = new AtomicInteger();
        Arrays.fill(stripes, CompletableFuture.completedFuture(null));
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "strata-redis-script-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public ScriptCache cache() {
        return cache;
    }

    /**
     * Runs {@code script} for {@code inv}: in {@code tr} (inside EXEC) or in a transaction of
     * its own (tr null). {@code readOnly}: EVAL_RO/EVALSHA_RO or a {@code no-writes} script.
     */
    public CompletableFuture<Reply> run(CompiledScript script, Invocation inv, Transaction tr, boolean readOnly,
                                        List<byte[]> keys, List<byte[]> args) {
        if (tr != null) {
            return runIn(script, inv, tr, readOnly, keys, args, new long[1]);
        }
        if (keys.isEmpty()) {
            return runAlone(script, inv, readOnly, keys, args);
        }
        // Scripts on the same first key take turns in this process: run together, their
        // transactions would conflict and all but one retry (as lanes avoid for commands).
        int stripe = Math.floorMod(Arrays.hashCode(keys.get(0)) * 31 + inv.db(), STRIPES);
        CompletableFuture<Reply> mine;
        synchronized (stripes) {
            mine = stripes[stripe].handle((ignored, error) -> null)
                    .thenCompose(ignored -> runAlone(script, inv, readOnly, keys, args));
            stripes[stripe] = mine;
        }
        return mine;
    }

    private CompletableFuture<Reply> runAlone(CompiledScript script, Invocation inv, boolean readOnly,
                                              List<byte[]> keys, List<byte[]> args) {
        long[] lastAttemptMillis = new long[1];
        return server.executor().runInTransaction(t -> {
            if (lastAttemptMillis[0] >= TRANSACTION_LIMIT_MILLIS) {
                // The last attempt outlived the database's transaction (too old to read or commit):
                // running it again would fail the same way, forever.
                return CompletableFuture.failedFuture(new RedisException("ERR Error running script " + script.sha()
                        + ": it ran for " + lastAttemptMillis[0] + " ms, longer than a database transaction may last (5 s)"));
            }
            return runIn(script, inv, t, readOnly, keys, args, lastAttemptMillis);
        });
    }

    private CompletableFuture<Reply> runIn(CompiledScript script, Invocation inv, Transaction tr, boolean readOnly,
                                           List<byte[]> keys, List<byte[]> args, long[] ranMillis) {
        CompletableFuture<Reply> result = new CompletableFuture<>();
        threads.execute(() -> {
            ScriptRun run = new ScriptRun(server, script, inv, tr, readOnly);
            running.add(run);
            Reply reply;
            try {
                reply = run.execute(keys, args);
            } catch (ScriptRun.AttemptFailed e) {
                running.remove(run);
                ranMillis[0] = run.runningMillis();
                result.completeExceptionally(e.getCause());
                return;
            } catch (RuntimeException | Error e) {
                running.remove(run);
                result.completeExceptionally(e);
                return;
            }
            // Off the list before the reply goes out: the caller's next request must not meet BUSY.
            running.remove(run);
            ranMillis[0] = run.runningMillis();
            if (run.killed() && reply.isError()) {
                // Nothing was written; failing the attempt leaves its transaction uncommitted.
                result.completeExceptionally(new RedisException(((Reply.Error) reply).message()));
            } else {
                result.complete(reply);
            }
        });
        return result;
    }

    /** Whether a script of another client than {@code session} has run longer than {@code busy-reply-threshold}. */
    public boolean busy(ClientSession session) {
        if (running.isEmpty()) {
            return false;
        }
        long threshold = server.settings().getLong("busy-reply-threshold");
        if (threshold <= 0) {
            return false;
        }
        for (ScriptRun run : running) {
            if (run.caller() != session && run.runningMillis() >= threshold) {
                return true;
            }
        }
        return false;
    }

    /** SCRIPT KILL: stops the scripts that have not written; Redis's errors when none runs or all wrote. */
    public void kill() {
        if (running.isEmpty()) {
            throw new RedisException("NOTBUSY No scripts in execution right now.");
        }
        boolean killedOne = false;
        for (ScriptRun run : running) {
            killedOne |= run.kill();
        }
        if (!killedOne) {
            throw new RedisException("UNKILLABLE Sorry the script already executed write commands against the dataset. "
                    + "You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.");
        }
    }

    /** How many scripts run now. */
    public int runningCount() {
        return running.size();
    }

    @Override
    public void close() {
        // A script spinning in Lua does not answer interrupts; the kill flag stops it at its next check.
        running.forEach(ScriptRun::abort);
        threads.shutdownNow();
    }
}
