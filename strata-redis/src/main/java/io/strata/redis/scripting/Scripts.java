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
 * A server's scripting: the EVAL script cache, the functions ({@link Functions}), the
 * scripting threads, and the runs in progress, which the BUSY check, SCRIPT KILL, FUNCTION
 * KILL and FUNCTION STATS look at.
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
 * a script only ever waits for the one started before it, so the chains cannot deadlock.
 * The set of runs in progress is a concurrent set; {@link #busy} reads it on every request,
 * which costs a volatile read when no script runs.
 */
public final class Scripts implements AutoCloseable {
    /** FoundationDB's limit on a transaction's life: a script attempt that ran longer cannot commit. */
    static final long TRANSACTION_LIMIT_MILLIS = 5000;
    private static final int STRIPES = 64;

    public static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    public static final String BUSY_FUNCTION = "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

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

    private volatile Functions functions;

    /** Redis 7 functions; made on first use (the key store exists only once the server is open). */
    public Functions functions() {
        Functions f = functions;
        if (f == null) {
            synchronized (this) {
                if (functions == null) {
                    functions = new Functions(server, this);
                }
                f = functions;
            }
        }
        return f;
    }

    /**
     * What a script command runs: {@link #prepare} reads what it needs inside the transaction
     * (FCALL: its library), then the job runs on a scripting thread in the same transaction.
     */
    public interface ScriptTask {
        /** The job, or a failed future (a RedisException is the command's error reply). */
        CompletableFuture<Job> prepare(Transaction tr);
    }

    /**
     * A script ready to run.
     *
     * @param name what errors and FUNCTION STATS name: the SHA1 or the function's name
     * @param function whether it is a function (FUNCTION KILL stops it, SCRIPT KILL does not)
     * @param readOnly whether write commands are refused
     * @param body runs it, giving its reply
     */
    public record Job(String name, boolean function, boolean readOnly, java.util.function.Function<ScriptRun, Reply> body) {
    }

    /** An EVAL script: nothing to read first. */
    public CompletableFuture<Reply> eval(CompiledScript script, Invocation inv, Transaction tr, boolean readOnly,
                                         List<byte[]> keys, List<byte[]> args) {
        Job job = new Job(script.sha(), false, readOnly, run -> run.execute(script.code(), keys, args));
        return run(t -> CompletableFuture.completedFuture(job), inv, tr, keys.isEmpty() ? null : keys.get(0));
    }

    /**
     * Runs {@code task} for {@code inv}: in {@code tr} (inside EXEC) or in a transaction of its
     * own (tr null), after the scripts started before it on the same first key.
     */
    public CompletableFuture<Reply> run(ScriptTask task, Invocation inv, Transaction tr, byte[] firstKey) {
        if (tr != null) {
            return runIn(task, inv, tr, new long[1]);
        }
        if (firstKey == null) {
            return runAlone(task, inv);
        }
        // Scripts on the same first key take turns in this process: run together, their
        // transactions would conflict and all but one retry (as lanes avoid for commands).
        int stripe = Math.floorMod(Arrays.hashCode(firstKey) * 31 + inv.db(), STRIPES);
        CompletableFuture<Reply> mine;
        synchronized (stripes) {
            mine = stripes[stripe].handle((ignored, error) -> null).thenCompose(ignored -> runAlone(task, inv));
            stripes[stripe] = mine;
        }
        return mine;
    }

    private CompletableFuture<Reply> runAlone(ScriptTask task, Invocation inv) {
        long[] lastAttemptMillis = new long[1];
        return server.executor().runInTransaction(t -> {
            if (lastAttemptMillis[0] >= TRANSACTION_LIMIT_MILLIS) {
                // The last attempt outlived the database's transaction (too old to read or commit):
                // running it again would fail the same way, forever.
                return CompletableFuture.failedFuture(new RedisException("ERR Error running script: it ran for "
                        + lastAttemptMillis[0] + " ms, longer than a database transaction may last (5 s)"));
            }
            return runIn(task, inv, t, lastAttemptMillis);
        });
    }

    private CompletableFuture<Reply> runIn(ScriptTask task, Invocation inv, Transaction tr, long[] ranMillis) {
        if (!inv.session().scriptClient()) {
            // The script's writes are its caller's (client-side caching's NOLOOP and ordering).
            server.tracking().running(tr, inv.session());
        }
        return task.prepare(tr).thenComposeAsync(job -> {
            ScriptRun run = new ScriptRun(server, job.name(), inv, tr, job.readOnly(), job.function());
            running.add(run);
            Reply reply;
            try {
                reply = job.body().apply(run);
            } catch (ScriptRun.AttemptFailed e) {
                running.remove(run);
                ranMillis[0] = run.runningMillis();
                return CompletableFuture.failedFuture(e.getCause());
            } catch (RuntimeException | Error e) {
                running.remove(run);
                return CompletableFuture.failedFuture(e);
            }
            // Off the list before the reply goes out: the caller's next request must not meet BUSY.
            running.remove(run);
            ranMillis[0] = run.runningMillis();
            if (run.killed() && reply.isError()) {
                // Nothing was written; failing the attempt leaves its transaction uncommitted.
                return CompletableFuture.failedFuture(new RedisException(((Reply.Error) reply).message()));
            }
            return CompletableFuture.completedFuture(reply);
        }, threads);
    }

    /** Runs {@code work} on a scripting thread (FUNCTION LOAD runs a library's code there). */
    <T> CompletableFuture<T> onScriptThread(java.util.function.Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, threads);
    }

    /**
     * Why {@code session} must wait: BUSY with the kill command that applies, once a script of
     * another client has run longer than {@code busy-reply-threshold}; null otherwise.
     */
    public String busy(ClientSession session) {
        if (running.isEmpty()) {
            return null;
        }
        long threshold = server.settings().getLong("busy-reply-threshold");
        if (threshold <= 0) {
            return null;
        }
        for (ScriptRun run : running) {
            if (run.caller() != session && run.runningMillis() >= threshold) {
                return run.function() ? BUSY_FUNCTION : BUSY;
            }
        }
        return null;
    }

    /**
     * SCRIPT KILL ({@code functions} false) or FUNCTION KILL: stops the running scripts of that
     * kind that have not written; Redis's errors when none runs, when they wrote, or when the
     * running one is of the other kind.
     */
    public void kill(boolean functions) {
        if (running.isEmpty()) {
            throw new RedisException("NOTBUSY No scripts in execution right now.");
        }
        boolean killedOne = false;
        boolean wrote = false;
        boolean otherKind = false;
        for (ScriptRun run : running) {
            if (run.wrote()) {
                wrote = true;
            } else if (run.function() != functions) {
                otherKind = true;
            } else {
                killedOne |= run.kill();
            }
        }
        if (killedOne) {
            return;
        }
        if (wrote) {
            throw new RedisException("UNKILLABLE Sorry the script already executed write commands against the dataset. "
                    + "You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.");
        }
        if (otherKind) {
            throw new RedisException(functions ? BUSY : BUSY_FUNCTION);
        }
        throw new RedisException("NOTBUSY No scripts in execution right now.");
    }

    /** FUNCTION STATS' running_script: the function running now (name, command, duration_ms), or null. */
    public Reply runningFunction() {
        for (ScriptRun run : running) {
            if (run.function()) {
                return Reply.map(List.of(Reply.bulk("name"), Reply.bulk(run.name()), Reply.bulk("command"),
                        Reply.bulks(Arrays.asList(run.invocationArgs())), Reply.bulk("duration_ms"),
                        Reply.integer(run.runningMillis())));
            }
        }
        return null;
    }

    /** Whether an EVAL script runs now (FUNCTION STATS then answers BUSY, as Redis). */
    public boolean evalRunning() {
        for (ScriptRun run : running) {
            if (!run.function()) {
                return true;
            }
        }
        return false;
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
