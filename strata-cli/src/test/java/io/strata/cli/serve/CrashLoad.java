package io.strata.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Runs one cycle's load of {@link CrashUnderLoadTest} and kills the server where its {@link CrashUnderLoadTest.Crash} says. */
final class CrashLoad {
    /** Longest wait for a phase of the load (every client answered, the burst sent) on a slow machine. */
    private static final long PHASE_TIMEOUT_MILLIS = 60_000;
    /** Less log than this replays too fast to kill reliably in the middle (a burst leaves 64 MiB or more). */
    private static final long MIN_RECOVERY_LOG_BYTES = 8L << 20;
    /** The disk engine's catch-up thread (DatabaseDirectory names it). */
    static final String CATCH_UP_THREAD = "strata-disk-catch-up";

    private CrashLoad() {}

    /**
     * Starts the clients, kills the server with SIGKILL at the point chosen, and waits for every
     * client to end on the dead connection.
     *
     * @return the client's clock once the server was dead (no command ran after it), and for
     *         {@link CrashUnderLoadTest.Crash#IN_SHUTDOWN} where the kill landed
     */
    static Killed runUntilKilled(ServerProcess server, Path db, List<LoadClient> clients, CrashUnderLoadTest.Crash crash)
            throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (LoadClient c : clients) {
            Thread t = new Thread(c, "load-client-" + c.id);
            t.setDaemon(true);
            threads.add(t);
        }
        long start = System.currentTimeMillis();
        threads.forEach(Thread::start);
        awaitOrFail(() -> clients.stream().allMatch(c -> c.answered > 0 || c.ended != null), "every client answered once");
        switch (crash) {
            case MID_LOAD -> sleepUntil(start + CrashUnderLoadTest.MID_LOAD_MILLIS);
            case IN_CHECKPOINT -> awaitOrFail(() -> checkpointBeingWritten(db), "a checkpoint being written");
            case IN_CATCH_UP -> {
                long catchUp = server.threadId(CATCH_UP_THREAD);
                assertThat(catchUp >= 0 || !Files.isDirectory(Path.of("/proc")))
                        .as("the server's %s thread", CATCH_UP_THREAD).isTrue();
                awaitOrFail(() -> clients.stream().allMatch(LoadClient::burstDone), "the burst sent");
                // The burst's first writes leave the window 5 s after they were committed;
                // then the catch-up thread writes them, 8 MiB per disk batch, in between the
                // small writes of the load that goes on. Without /proc, the time alone.
                sleepUntil(start + 5_300);
                if (catchUp >= 0) {
                    awaitOrFail(() -> server.running(catchUp) && server.running(catchUp), "the catch-up thread at work");
                }
            }
            case IN_SHUTDOWN -> awaitOrFail(() -> clients.stream().allMatch(LoadClient::burstDone), "the burst sent");
        }
        // A background step that failed (a checkpoint, a log trim, a disk write) logs a warning.
        assertThat(server.printed()).as("what the server printed before the kill: its ready line only")
                .startsWith("strata-redis ready").doesNotContain("\n");
        long killing = System.currentTimeMillis(); // or stopping: connections end from here on
        for (LoadClient c : clients) {
            assertThat(c.ended).as("client %d's connection ended before the kill", c.id).isNull();
        }
        String where = "";
        if (crash == CrashUnderLoadTest.Crash.IN_SHUTDOWN) {
            where = stopThenKill(server);
        }
        server.crash();
        assertThat(server.process.isAlive()).isFalse();
        long dead = System.currentTimeMillis();
        for (Thread t : threads) {
            t.join(30_000);
            assertThat(t.isAlive()).as("%s still runs 30 s after the kill", t.getName()).isFalse();
        }
        for (LoadClient c : clients) {
            assertThat(c.endedAt).as("client %d's connection ended (%s) before the kill", c.id, c.ended).isGreaterThanOrEqualTo(killing);
            assertThat(c.answered).as("commands client %d had answered", c.id).isPositive();
        }
        return new Killed(dead, where);
    }

    /** When the server was dead, and what a kill during a shutdown interrupted. */
    record Killed(long at, String where) {}

    /**
     * SIGTERM, then SIGKILL while the stopping server's catch-up thread writes the window to
     * disk (the clean stop writes it, makes the disk store durable and deletes the log it
     * covers, so the next start replays nothing) — or, if the stop ends first, nothing more.
     */
    private static String stopThenKill(ServerProcess server) {
        long catchUp = server.threadId(CATCH_UP_THREAD);
        server.process.destroy();
        long deadline = System.currentTimeMillis() + PHASE_TIMEOUT_MILLIS;
        while (server.process.isAlive() && System.currentTimeMillis() < deadline) {
            if (catchUp >= 0 && server.running(catchUp) && server.running(catchUp)) {
                return "; SIGTERM, then SIGKILL while the stopping server wrote its window to disk";
            }
            LockSupport.parkNanos(200_000);
        }
        return "; SIGTERM, and the server stopped before the catch-up thread was seen writing";
    }

    /**
     * Starts the server on {@code db} and kills it while it recovers: once it has read a
     * quarter of the log the last kill left, counted from when it first had one of its
     * segments open. The next start then recovers a directory whose recovery was cut short.
     * Needs Linux's {@code /proc}; without it, does nothing and says so.
     *
     * @return how far the recovery had read, for the test's output
     */
    static String killDuringRecovery(Path db) throws Exception {
        Set<Path> segments;
        try (Stream<Path> files = Files.list(db)) {
            segments = files.filter(p -> p.getFileName().toString().endsWith(".log")).map(CrashLoad::real).collect(Collectors.toSet());
        }
        long logBytes = 0;
        for (Path p : segments) {
            logBytes += Files.size(p);
        }
        if (logBytes < MIN_RECOVERY_LOG_BYTES) {
            return String.format("no kill during a recovery: only %.1f MiB of log", logBytes / 1048576.0);
        }
        long readBeforeKill = logBytes / 4;
        try (ServerProcess server = ServerProcess.launch(db)) {
            if (server.bytesRead() < 0) {
                return "no /proc: not killed during a recovery";
            }
            long deadline = System.currentTimeMillis() + PHASE_TIMEOUT_MILLIS;
            long base = -1;
            long read = 0;
            while (base < 0 || read - base < readBeforeKill) {
                assertThat(server.isReady() || !server.process.isAlive())
                        .as("the server ended its recovery before it was killed; it printed:%n%s", server.printed()).isFalse();
                assertThat(System.currentTimeMillis()).as("waiting for the recovery to read the log").isLessThan(deadline);
                if (base < 0 && server.hasOpen(segments)) {
                    base = server.bytesRead();
                }
                read = server.bytesRead();
                LockSupport.parkNanos(200_000);
            }
            server.crash();
            return String.format("a restart killed %.1f MiB into replaying %.1f MiB of log", (read - base) / 1048576.0,
                    logBytes / 1048576.0);
        }
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether a checkpoint file is being written: {@code CheckpointFile} writes a {@code .ckpt.tmp}, then renames it. */
    static boolean checkpointBeingWritten(Path db) {
        try (Stream<Path> files = Files.list(db)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".ckpt.tmp"));
        } catch (IOException e) {
            return false; // a file renamed while listed: look again
        }
    }

    private interface Condition {
        boolean holds();
    }

    private static void awaitOrFail(Condition condition, String what) {
        long deadline = System.currentTimeMillis() + PHASE_TIMEOUT_MILLIS;
        while (!condition.holds()) {
            assertThat(System.currentTimeMillis()).as("waiting for %s", what).isLessThan(deadline);
            LockSupport.parkNanos(200_000); // a few polls a millisecond, without taking a core from the server
        }
    }

    private static void sleepUntil(long time) throws InterruptedException {
        long left = time - System.currentTimeMillis();
        if (left > 0) {
            Thread.sleep(left);
        }
    }
}
