package io.strata.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * {@code strata serve redis}'s promise — nothing acknowledged is lost by {@code kill -9} —
 * under real load, on both storage engines: eight Jedis clients (four pipelined, fifty
 * commands a batch; four one command at a time) send a mix of commands over every type
 * ({@link LoadClient}); the server is killed with SIGKILL while they run, restarted on the
 * same directory, and checked; three times, each recovery starting from the last one's
 * directory.
 *
 * <h2>What is checked after each restart</h2>
 * <ul>
 *   <li>Each client's own keys ({@link ClientKeys}) show exactly the model after some prefix
 *       of its commands, at least every answered one: nothing answered is lost, nothing
 *       never sent appears, a connection's commands survive in the order they ran, and a
 *       MULTI block is there whole or not at all.</li>
 *   <li>Strings set with EX keep a deadline within the window the SET ran in (so the TTL
 *       survived and was not restarted by recovery); strings set without EX have none.</li>
 *   <li>Shared keys ({@link SharedKeys}): counters between the certain and the possible
 *       increments, two accounts whose total MULTI transfers kept, a set with every certain
 *       member and no unsent one.</li>
 *   <li>DBSIZE is exactly the number of keys the models say exist, and the recovered server
 *       takes the next cycle's load (after the last, a few more writes).</li>
 * </ul>
 * Replies are checked as they come too: each reply on a client's own keys is the model's,
 * and MULTI reads of the two accounts always see the total.
 *
 * <h2>Where the kill lands</h2>
 * {@link Crash}: in the middle of the mixed load; on the memory engine, while a checkpoint is
 * being written (after a burst of some 80 MB of large values, past the 64 MiB of log that
 * starts one); on the disk engine, while its catch-up thread writes such a burst to RocksDB,
 * five seconds after it, when its writes leave the engine's MVCC window (the log rotated
 * meanwhile, and is trimmed behind the catch-up), and while a stopping server (SIGTERM)
 * writes its window to disk. After each burst kill the next start is killed too, a quarter
 * into replaying the log, so the start after recovers a directory whose recovery was cut
 * short. Memory runs MID_LOAD, IN_CHECKPOINT, MID_LOAD; ssd runs MID_LOAD, IN_CATCH_UP,
 * IN_SHUTDOWN.
 */
class CrashUnderLoadTest {
    static final int CLIENTS = 8;
    static final int COUNTERS = 4;
    /** acct:a + acct:b: every transfer keeps it. */
    static final long TOTAL = 1_000_000;
    /** Large values each pipelined client sends at the start of a burst cycle: 4 × 18 MiB, past 64 MiB of log. */
    private static final long BURST_BYTES_PER_CLIENT = 18L << 20;
    /** Large values before an {@link Crash#IN_SHUTDOWN} kill: 4 × 6 MiB in the window, a few hundred ms to write. */
    private static final long SHUTDOWN_BURST_BYTES_PER_CLIENT = 6L << 20;
    /** How long the mixed load runs before a {@link Crash#MID_LOAD} kill. */
    static final long MID_LOAD_MILLIS = 1_000;
    /** Clock reads around calls, and SET's deadline taken a little after the client's clock read. */
    private static final long TTL_SLACK_MILLIS = 50;

    /** When the server is killed. */
    enum Crash {
        /** {@link #MID_LOAD_MILLIS} into the mixed load. */
        MID_LOAD,
        /**
         * Memory engine: a burst of large values passes 64 MiB of log, the checkpointer writes
         * a checkpoint, and the kill comes while its {@code .ckpt.tmp} exists.
         */
        IN_CHECKPOINT,
        /**
         * Disk engine: the same burst (its log is rotated at 64 MiB), then the mixed load goes
         * on (more commands checked than an idle wait would give); the burst's writes reach
         * the catch-up only when they leave the five-second MVCC window, so the kill comes
         * after that, once the catch-up thread is seen running (twice in a row: not merely
         * waking from its 100 ms wait).
         */
        IN_CATCH_UP,
        /**
         * Disk engine: a smaller burst, then SIGTERM, and SIGKILL while the stopping server's
         * catch-up thread writes the five-second window (the burst) to disk, before the stop
         * makes it durable and deletes the log.
         */
        IN_SHUTDOWN
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "storage {0}")
    @ValueSource(strings = {"memory", "ssd"})
    void everyAcknowledgedWriteSurvivesRepeatedKillDashNineUnderLoad(String storage) throws Exception {
        long seed = new Random().nextLong();
        System.out.println("CrashUnderLoadTest storage " + storage + " seed " + seed);
        Random random = new Random(seed);
        Path db = dir.resolve("db");
        ClientKeys[] models = new ClientKeys[CLIENTS];
        long[] seqs = new long[CLIENTS];
        for (int c = 0; c < CLIENTS; c++) {
            models[c] = new ClientKeys(c);
        }
        SharedKeys shared = new SharedKeys();
        List<Crash> crashes = storage.equals("ssd") ? List.of(Crash.MID_LOAD, Crash.IN_CATCH_UP, Crash.IN_SHUTDOWN)
                : List.of(Crash.MID_LOAD, Crash.IN_CHECKPOINT, Crash.MID_LOAD);

        ServerProcess server = ServerProcess.start(db, "--storage", storage);
        try {
            started(server);
            try (Jedis j = new Jedis("127.0.0.1", server.port)) {
                j.set(LoadOp.ACCOUNT_A, Long.toString(TOTAL));
                j.set(LoadOp.ACCOUNT_B, "0");
            }
            for (Crash crash : crashes) {
                long began = System.nanoTime();
                List<LoadClient> clients = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    boolean pipelined = c % 2 == 0;
                    clients.add(new LoadClient(c, pipelined, models[c].copy(), seqs[c], random.nextLong(), server.port,
                            pipelined ? burstBytes(crash) : 0));
                }
                CrashLoad.Killed killed = CrashLoad.runUntilKilled(server, db, clients, crash);
                long crashedAt = killed.at();
                String left = DirectorySummary.of(db) + killed.where();
                if (crash == Crash.IN_CHECKPOINT || crash == Crash.IN_CATCH_UP) {
                    left += "; " + CrashLoad.killDuringRecovery(db);
                }
                long recovering = System.nanoTime();
                server = ServerProcess.start(db);
                started(server);
                long restarted = System.nanoTime();
                String kept = verify(server, clients, models, shared, crashedAt, crash);
                for (LoadClient c : clients) {
                    seqs[c.id] = c.seq;
                }
                System.out.printf("CrashUnderLoadTest %s %s: %d commands answered, %d in flight; load %d ms, restart %d ms, check %d ms;"
                                + " the kill left %s; %s%n", storage, crash, clients.stream().mapToInt(c -> c.answered).sum(),
                        clients.stream().mapToInt(c -> c.ops.size() - c.answered).sum(), (recovering - began) / 1_000_000,
                        (restarted - recovering) / 1_000_000, (System.nanoTime() - restarted) / 1_000_000, left, kept);
            }
            try (Jedis j = new Jedis("127.0.0.1", server.port)) {
                long keys = j.dbSize();
                assertThat(j.set("after:crashes", "ok")).isEqualTo("OK");
                assertThat(j.incr("counter:0")).isEqualTo(shared.counters[0] + 1);
                assertThat(j.get("after:crashes")).isEqualTo("ok");
                assertThat(j.dbSize()).isEqualTo(keys + (shared.counters[0] == 0 ? 2 : 1));
            }
        } finally {
            server.close();
        }
    }

    /** Large values each pipelined client sends first in a cycle that ends with {@code crash}. */
    private static long burstBytes(Crash crash) {
        return switch (crash) {
            case MID_LOAD -> 0;
            case IN_CHECKPOINT, IN_CATCH_UP -> BURST_BYTES_PER_CLIENT;
            case IN_SHUTDOWN -> SHUTDOWN_BURST_BYTES_PER_CLIENT;
        };
    }

    private static void started(ServerProcess server) {
        assertThat(server.isReady()).as("the server started; it printed:\n%s", server.printed()).isTrue();
    }

    /**
     * The checks of the class comment, on the restarted server; then the models start from
     * what it shows. Returns how many commands in flight at the kill the server kept.
     */
    private static String verify(ServerProcess server, List<LoadClient> clients, ClientKeys[] models, SharedKeys shared, long crashedAt,
                               Crash crash) {
        List<String> problems = new ArrayList<>();
        for (LoadClient c : clients) {
            problems.addAll(c.problems);
        }
        int[] lo = new int[CLIENTS];
        int[] hi = new int[CLIENTS];
        try (Jedis j = new Jedis("127.0.0.1", server.port, 30_000)) {
            int keys = 0;
            for (LoadClient c : clients) {
                ClientKeys shown = ClientKeys.read(j, c.id);
                PrefixMatch match = PrefixMatch.find(models[c.id], c, shown, crashedAt, TTL_SLACK_MILLIS);
                if (match.model() == null) {
                    problems.add("client " + c.id + " (" + (c.pipelined ? "pipelined" : "one at a time") + "): the server shows no prefix of "
                            + "its commands that includes the " + c.answered + " answered (of " + c.ops.size() + " sent); "
                            + match.explanation());
                    lo[c.id] = c.answered;
                    hi[c.id] = c.ops.size();
                    models[c.id] = shown;
                } else {
                    lo[c.id] = match.lo();
                    hi[c.id] = match.hi();
                    models[c.id] = match.model();
                }
                keys += models[c.id].existingKeys();
            }
            shared.check(j, clients, lo, hi, problems);
            keys += shared.existingKeys();
            long dbSize = j.dbSize();
            if (dbSize != keys) {
                problems.add("DBSIZE is " + dbSize + ", but the keys the models hold number " + keys);
            }
        }
        assertThat(problems).as("after a kill -9 %s", crash).isEmpty();
        int inFlightKept = 0;
        int undecided = 0;
        for (LoadClient c : clients) {
            inFlightKept += lo[c.id] - c.answered;
            undecided += hi[c.id] - lo[c.id];
        }
        return "the server kept " + inFlightKept + " commands in flight at the kill (" + undecided + " more undecided: shared keys only)";
    }
}
